/// <reference types="node" />
/**
 * The smoke's own tests (`npm run test:smoke`), in Node: they start a local `wrangler dev` and run
 * scripts/ops/smoke.mjs against it, so they are a stage of `npm test` of their own rather than part of
 * the worker tests (vitest.config.ts).
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'),
  test: {
    name: 'smoke',
    include: ['tests/smoke/**/*.test.ts'],
    environment: 'node',
    // One wrangler dev for the file; each smoke run makes about 45 requests, one at a time.
    testTimeout: 120_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
})
