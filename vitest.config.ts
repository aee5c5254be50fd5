/// <reference types="node" />
/**
 * Three Vitest projects. tooling — tests/tooling/*.test.ts in Node: the operator's scripts run as
 * an operator runs them. The other two run inside the Workers runtime (@cloudflare/vitest-plugin):
 *
 * content-service — tests/content-service/*.test.ts against the reference content service itself
 *   (content-service/wrangler.toml, main content-service/src/index.ts). Its CONTENT_DB is migrated
 *   and seeded by tests/support/setup/content-service.ts before every test file.
 *
 * site — tests/worker/**\/*.test.ts against the site worker (root wrangler.toml, src/index.ts), all
 *   files in one runtime (`isolate: false`), each starting from empty storage and fresh modules.
 *   Its CONTENT service binding (wrangler.toml [[services]] -> "erebuni-content") is served by an
 *   auxiliary worker named "erebuni-content": the content service bundled with esbuild into
 *   .wrangler/test/content-service.mjs when this config loads. That worker's CONTENT_DB and the
 *   site runner's extra TEST_CONTENT_DB binding name the same local D1 database, so
 *   tests/support/setup/site.ts migrates and seeds it from the site side and `exports.default.fetch(...)`
 *   (or env.CONTENT.fetch) gets the real seed content.
 *
 * Test-only bindings (both projects): TEST_CONTENT_MIGRATIONS (readD1Migrations of
 * content-service/migrations) and TEST_CONTENT_SEED (the SQL statements of
 * content-service/scripts/seed-sql.mjs, the same ones `npm run content:seed` runs); the site
 * project adds TEST_CONTENT_DB. TEST_CONTENT_MISSING_IMAGES lists seed images absent from public/
 * (checked in Node, asserted empty by a test). The site project adds TEST_IMAGES: image bytes the
 * route's tests serve from a fake origin, made here in Node because workerd cannot run sharp (a
 * 4000×3000 camera photo from scripts/lib/camera-uploads/, PNGs whose headers claim 60000×60000
 * and 15000×15000 pixels: decompression bombs, and a small image in each raster format:
 * tests/support/setup/format-samples.mjs) and TEST_HEADER_FIXTURES: a small GIF, WebP (lossy,
 * lossless, extended), AVIF, progressive JPEG and JPEG with EXIF and ICC segments, and a bomb of
 * each (tests/support/setup/header-fixtures.mjs, kept under .wrangler/test/). Types: tests/support/setup/env.d.ts.
 *
 * The site worker imports src/generated/client-manifest.ts, written by the [build] step
 * (scripts/build-client.mjs), which the plugin does not run: when the manifest is missing, this
 * config runs the build once so a fresh clone's `npx vitest run` works.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { build } from 'esbuild'
import { unstable_readConfig } from 'wrangler'
import { defineConfig } from 'vitest/config'
import {
  buildSeedStatements,
  findMissingImages,
  readSeed,
} from './content-service/scripts/seed-sql.mjs'
import { cameraPhoto } from './scripts/lib/camera-uploads/photos.mjs'
import { bombPng } from './tests/support/setup/bomb-png.mjs'
import { headerFixtures } from './tests/support/setup/header-fixtures.mjs'
import { formatSamples, smallPhoto } from './tests/support/setup/format-samples.mjs'

const root = path.dirname(fileURLToPath(import.meta.url))
const at = (relative: string) => path.join(root, relative)

const contentConfig = unstable_readConfig({ config: at('content-service/wrangler.toml') })
const contentDb = contentConfig.d1_databases.find(
  (db: { binding: string; database_id?: string }) => db.binding === 'CONTENT_DB'
)
if (!contentDb) throw new Error('content-service/wrangler.toml: no CONTENT_DB database')
/** The local database's id: like `wrangler dev`, the binding name when the config names no id. */
const contentDbId = contentDb.database_id ?? contentDb.binding

/** The reference service's editors' token in both projects' tests (its drafts: content-service/README.md). */
const EDITOR_TOKEN = 'test-editor-token'

const seed = readSeed()
const testBindings = {
  TEST_CONTENT_MIGRATIONS: await readD1Migrations(at('content-service/migrations')),
  TEST_CONTENT_SEED: buildSeedStatements(seed),
  TEST_CONTENT_MISSING_IMAGES: findMissingImages(seed),
}

/** Base64, since test bindings are JSON. */
const testImages = {
  TEST_IMAGES: {
    cameraJpeg: (
      await cameraPhoto('test-camera-photo', { width: 4000, height: 3000, noise: 4, quality: 80 })
    ).toString('base64'),
    bombPng: bombPng(60_000, 60_000).toString('base64'),
    overLimitPng: bombPng(15_000, 15_000).toString('base64'),
    // A 480×360 image in each format the route reads, for the corrupt-original tests.
    samples: Object.fromEntries(
      Object.entries(await formatSamples()).map(([format, bytes]) => [
        format,
        bytes.toString('base64'),
      ])
    ),
    smallJpeg: (await smallPhoto()).toString('base64'),
  },
  TEST_HEADER_FIXTURES: await headerFixtures(),
}

/** The content service as one ES module file, for the site project's auxiliary worker. */
const contentBundle = at('.wrangler/test/content-service.mjs')
await build({
  entryPoints: [at('content-service/src/index.ts')],
  outfile: contentBundle,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  conditions: ['workerd', 'worker', 'browser'],
  target: 'es2022',
  external: ['cloudflare:*'],
  logLevel: 'warning',
})

const manifest = at('src/generated/client-manifest.ts')
const buildScript = at('scripts/build-client.mjs')
if (!existsSync(manifest) && existsSync(buildScript)) {
  const result = spawnSync(process.execPath, [buildScript], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0)
    throw new Error(
      'scripts/build-client.mjs failed; the site worker needs src/generated/client-manifest.ts'
    )
}

export default defineConfig({
  test: {
    projects: [
      {
        // Node, not the Workers runtime: the operator's scripts (npm run check:deploy).
        test: {
          name: 'tooling',
          include: ['tests/tooling/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            remoteBindings: false,
            wrangler: { configPath: './content-service/wrangler.toml' },
            // The editors' token and the publish hook's secret the draft routes need (content-service/README.md).
            miniflare: {
              bindings: {
                ...testBindings,
                EDITOR_TOKEN: EDITOR_TOKEN,
                PUBLISH_SECRET: 'test-publish-secret',
              },
            },
          }),
        ],
        test: {
          name: 'content-service',
          include: ['tests/content-service/**/*.test.ts'],
          setupFiles: ['./tests/support/setup/content-service.ts'],
        },
      },
      {
        plugins: [
          cloudflareTest({
            remoteBindings: false,
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              // The contact outbox's retry schedule without its waits (src/contact/retry-schedule.ts):
              // the local queue's consumer tries a queued message about once a second (max_batch_timeout).
              // No renditions warm-up after a publish (a 1 ms budget: src/images/warm-renditions.ts)
              // but where a test gives it one (tests/worker/image-warm.test.ts).
              bindings: {
                ...testBindings,
                ...testImages,
                CONTACT_RETRY_MAX_DELAY_SECONDS: '0',
                IMAGE_WARM_BUDGET_MS: '1',
              },
              d1Databases: { TEST_CONTENT_DB: contentDbId },
              workers: [
                {
                  name: contentConfig.name,
                  modules: true,
                  scriptPath: contentBundle,
                  compatibilityDate: contentConfig.compatibility_date,
                  compatibilityFlags: contentConfig.compatibility_flags,
                  d1Databases: { CONTENT_DB: contentDbId },
                  // Drafts open to the editors' token the site's preview tests send (PREVIEW_API_TOKEN).
                  bindings: { EDITOR_TOKEN },
                },
              ],
            },
          }),
        ],
        test: {
          name: 'site',
          // One Workers runtime for every test file, not one each (two seconds of startup per file):
          // tests/support/setup/site.ts empties storage and re-evaluates the site's modules before
          // each file, so a file still starts as in a runtime of its own, in any order. One Vitest
          // worker on a 2-core machine (its default, cores - 1): `npm test` is bound by CPU there,
          // with the browser tests beside this stage (docs/testing.md).
          isolate: false,
          include: ['tests/worker/**/*.test.ts'],
          // A deadline, not a measure: a test that starts new isolates evaluates the site's modules
          // afresh for each (tests/support/worker/worker.ts), seconds on a busy 2-core machine.
          testTimeout: 30_000,
          setupFiles: ['./tests/support/setup/site.ts'],
        },
      },
    ],
  },
})
