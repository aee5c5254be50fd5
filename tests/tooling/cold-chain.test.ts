/// <reference types="node" />
/**
 * The one recorder of I/O chains (scripts/lib/io-chain.ts), and its steps as the cold bench shows
 * them (scripts/bench/cold/levels.mjs): calls made side by side share a step and a call that waited for
 * another's answer comes in the next, whatever order the answers come in; the location's own calls
 * are let through before those that can leave it; only calls before the response are in the chain;
 * bulk reads bill per key.
 */
import { describe, expect, it } from 'vitest'
import { ioChain, recordedCache, recordedKv, stepsLeaving } from '../../scripts/lib/io-chain'
import { chainText, stepKinds, unitsByKind } from '../../scripts/bench/cold/levels.mjs'

/** A KV namespace whose every read answers after `delays[key]` ms. */
function slowKv(delays: Record<string, number>): KVNamespace {
  const answer = (key: string) =>
    new Promise((resolve) => setTimeout(() => resolve(`value of ${key}`), delays[key] ?? 0))
  return {
    get: (key: string | string[]) =>
      Array.isArray(key)
        ? Promise.all(key.map(answer)).then((values) => new Map(key.map((k, i) => [k, values[i]])))
        : answer(key),
    put: async () => undefined,
  } as unknown as KVNamespace
}

/** A cache that holds nothing. */
const emptyCache = {
  match: async () => undefined,
  put: async () => undefined,
  delete: async () => false,
} as unknown as Cache

describe('the recorded chain of a request', () => {
  it('puts calls started side by side in one step, and a call that awaited an answer in the next', async () => {
    const chain = ioChain()
    // The first call answers last: the order of answers must not make the two look sequential.
    const kv = recordedKv(slowKv({ navbar: 30, contact: 5, home: 1 }), 'CONTENT_CACHE', () => chain)
    const { steps } = await chain.measure(async () => {
      await Promise.all([kv.get('navbar'), kv.get('contact')])
      await kv.get(['placeholder:a', 'placeholder:b', 'placeholder:c'])
      void kv.put('home', 'after the response')
      return new Response('page')
    })
    expect(steps.map((step) => step.calls)).toEqual([
      ['kv-read CONTENT_CACHE:navbar', 'kv-read CONTENT_CACHE:contact'],
      ['kv-read CONTENT_CACHE:[3 keys]'],
    ])
    expect(stepKinds(steps)).toEqual([['kv-read', 'kv-read'], ['kv-read']])
    expect(chainText(steps)).toBe('↗ 2 kv-read → ↗ kv-read')
    expect(unitsByKind(chain.calls)).toEqual({ 'kv-read': 5, 'kv-write': 1 })
    // Started during the render, not awaited by the response: not in the chain.
    expect(chain.calls.at(-1)).toMatchObject({ kind: 'kv-write', wave: 0 })
  })

  it("lets the location's own calls through first: a Cache API read started beside a KV read is a local step, the KV read the one that can leave", async () => {
    const chain = ioChain()
    const kv = recordedKv(slowKv({}), 'CONTENT_CACHE', () => chain)
    const cache = recordedCache(emptyCache, () => chain)
    const { steps } = await chain.measure(async () => {
      const hashes = kv.get('payload-hashes')
      // A miss in the location's cache starts the payload reads at once, beside the hashes.
      if (!(await cache.match('http://localhost/en'))) await Promise.all([hashes, kv.get('navbar')])
      return new Response('page')
    })
    expect(steps).toEqual([
      { leaves: false, calls: ['cache-read http://localhost/en'] },
      {
        leaves: true,
        calls: ['kv-read CONTENT_CACHE:payload-hashes', 'kv-read CONTENT_CACHE:navbar'],
      },
    ])
    expect(stepsLeaving(steps)).toBe(1)
    expect(stepKinds(steps)).toEqual([['cache-read'], ['kv-read', 'kv-read']])
    expect(chainText(steps)).toBe('· cache-read → ↗ 2 kv-read')
  })

  it('records nothing outside a recorded invocation, and holds nothing when told not to', async () => {
    const kv = recordedKv(slowKv({}), 'CONTENT_CACHE', () => undefined)
    await expect(kv.get('navbar')).resolves.toBe('value of navbar')
    const open = ioChain({ held: false })
    const scheduled = recordedKv(slowKv({}), 'CONTENT_CACHE', () => open)
    await scheduled.get('refresh:heartbeat')
    expect(open.calls).toMatchObject([{ kind: 'kv-read', wave: 0 }])
    expect(chainText([])).toBe('—')
  })
})
