/// <reference types="node" />
/**
 * The image route's configuration (wrangler.toml, docs/decisions/0013-signed-image-addresses.md) as a
 * deploy would read it: every environment limits image misses per client, generously, and the
 * deployed ones refuse to start without the key that signs image addresses.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { unstable_readConfig } from 'wrangler'

const CONFIG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../wrangler.toml')
const read = (env?: string) => unstable_readConfig({ config: CONFIG, env }, { hideWarnings: true })

describe('wrangler.toml: the image route fences', () => {
  it.each(['', 'staging', 'production'])(
    'limits image misses per client to at least 100 a minute (%s)',
    (env) => {
      const limiter = (read(env || undefined).ratelimits ?? []).find(
        (limit: { name: string }) => limit.name === 'IMAGE_RATE_LIMITER'
      )
      expect(limiter).toBeDefined()
      expect(limiter.simple.period).toBe(60)
      expect(limiter.simple.limit).toBeGreaterThanOrEqual(100)
    }
  )

  it.each(['staging', 'production'])('requires IMAGE_URL_SECRET in %s', (env) => {
    expect(read(env).secrets?.required).toContain('IMAGE_URL_SECRET')
  })
})
