/// <reference types="node" />
/**
 * The beacons' rate limit as a deploy reads it (wrangler.toml TELEMETRY_RATE_LIMITER): 60 beacons a
 * minute per client in every environment, the figure tests/worker/telemetry.test.ts floods against.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { unstable_readConfig } from 'wrangler'

const CONFIG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../wrangler.toml')
const read = (env?: string) => unstable_readConfig({ config: CONFIG, env }, { hideWarnings: true })

describe('wrangler.toml: the beacons rate limit', () => {
  it.each(['', 'staging', 'production'])('allows 60 beacons a minute per client (%s)', (env) => {
    const limiter = (read(env || undefined).ratelimits ?? []).find(
      (limit: { name: string }) => limit.name === 'TELEMETRY_RATE_LIMITER'
    )
    expect(limiter?.simple).toEqual({ limit: 60, period: 60 })
  })
})
