/**
 * The purge seam (src/freshness/purge.ts): Workers Cache where the runtime offers
 * `ctx.cache`, the local purger (which has nothing to drop) where it does not.
 */
import { createExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { pagePurgerFor } from '../../src/freshness/purge'
import { contextWithWorkersCache } from '../support/worker/freshness'

describe('the purge seam', () => {
  it('purges through Workers Cache when the runtime offers ctx.cache, 30 tags a call', async () => {
    const { ctx, purged } = contextWithWorkersCache()
    const purger = pagePurgerFor(ctx)
    expect(purger.kind).toBe('workers-cache')
    const tags = Array.from({ length: 65 }, (_, i) => `payload:test-${i}`)
    await purger.purgeTags(tags)
    expect(purged.map((call) => call.length)).toEqual([30, 30, 5])
    expect(purged.flat()).toEqual(tags)
  })

  it('fails loudly when Workers Cache refuses a purge', async () => {
    const { ctx } = contextWithWorkersCache({ fail: true })
    await expect(pagePurgerFor(ctx).purgeTags(['payload:x'])).rejects.toThrow(/1 purge refused/)
  })

  it('falls back to the local purger where ctx.cache is undefined, as under wrangler dev and here', async () => {
    const ctx = createExecutionContext()
    expect((ctx as { cache?: unknown }).cache).toBeUndefined()
    const purger = pagePurgerFor(ctx)
    expect(purger.kind).toBe('local')
    await expect(purger.purgeTags(['payload:x'])).resolves.toBeUndefined()
  })
})
