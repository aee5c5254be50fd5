/**
 * How many storage and backend round trips a visit waits for before its first byte, at each cold
 * level it can meet (issue 39; docs/decisions/0027-edge-copies-outlive-a-quiet-night.md and
 * 0032-a-miss-waits-for-at-most-two-round-trips.md): one for a page in a cache, two for a miss.
 * Every KV, Cache API and backend call is held and released in waves (tests/support/io-chain.ts):
 * the count of waves is the chain of sequential round trips, whatever the machine's speed. The
 * scheduled refresh runs (its heartbeat is fresh), as in production.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HEARTBEAT_KEY } from '../../src/content/refresh'
import type { Bindings } from '../../src/env'
import { PLACEHOLDER_INDEX_KEY } from '../../src/images/placeholders'
import { ioChain } from '../support/io-chain'
import { fakeBackend } from '../support/worker/fake-backend'
import { fetchPage, newIsolate } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
beforeEach(async () => {
  await env.CONTENT_CACHE.put(HEARTBEAT_KEY, String(Date.now()))
})
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

/** One visit with every KV, Cache API and backend call gated; its waves and calls. */
async function measuredVisit(path: string, bindings: Bindings) {
  // Imported before the chain holds I/O: this test's isolate of the site.
  const { default: worker } = await import('../../src/index')
  const chain = ioChain()
  chain.cache(caches.default)
  chain.fetch()
  const gated = { ...bindings, CONTENT_CACHE: chain.kv(bindings.CONTENT_CACHE) }
  const ctx = createExecutionContext()
  const { response, depth, waves } = await chain.measure(() =>
    worker.fetch(new Request(new URL(path, 'http://localhost')), gated, ctx)
  )
  const html = await response.text()
  await waitOnExecutionContext(ctx)
  vi.restoreAllMocks()
  return {
    status: response.status,
    page: response.headers.get('X-Page-Cache'),
    provisional: (response.headers.get('ETag') ?? '').endsWith('.provisional"'),
    html,
    depth,
    waves,
  }
}

const PAYLOAD_READ = /^kv get payload:v2:/
const BACKEND_CALL = /^backend /
const PLACEHOLDER_INDEX_READ = `kv get ${PLACEHOLDER_INDEX_KEY}`
/** A photo painted with its placeholder, as the markup carries it (tests/worker/image-markup.test.ts). */
const PREVIEW = 'url(data:image/webp\\3b base64,'

describe('round trips before the first byte', () => {
  it('a page in the Cache API, in a new isolate: one round trip (Cache API, payload hashes and heartbeat side by side), no backend call', async () => {
    backend = fakeBackend()
    const bindings = backend.env()
    await fetchPage('/en/about', bindings)
    newIsolate()
    const visit = await measuredVisit('/en/about', bindings)
    expect(visit).toMatchObject({ status: 200, page: 'hit', depth: 1 })
    expect(visit.waves[0]).toEqual(
      expect.arrayContaining([
        'cache match',
        expect.stringMatching(/^kv get payload-hashes:/),
        `kv get ${HEARTBEAT_KEY}`,
      ])
    )
    expect(visit.waves.flat().filter((call) => BACKEND_CALL.test(call))).toEqual([])
  })

  it("a page in this isolate's memory: at most the payload hashes, one round trip, and no Cache API read", async () => {
    backend = fakeBackend()
    const bindings = backend.env()
    await fetchPage('/en/contact-us', bindings)
    const visit = await measuredVisit('/en/contact-us', bindings)
    expect(visit).toMatchObject({ status: 200, page: 'hit' })
    expect(visit.depth).toBeLessThanOrEqual(1)
    expect(visit.waves.flat()).not.toContain('cache match')
  })

  it('a page missing from the Cache API with its payloads in KV: every payload and the placeholder index read side by side, after one round trip', async () => {
    backend = fakeBackend()
    const bindings = backend.env()
    await fetchPage('/en/about', backend.env({ PAGE_CACHE_TTL: '0' }))
    const calls = backend.calls.length
    newIsolate()
    const visit = await measuredVisit('/en/about', bindings)
    expect(visit).toMatchObject({ status: 200, page: 'miss' })
    expect(visit.waves[0]).toEqual(
      expect.arrayContaining(['cache match', expect.stringMatching(/^kv get payload-hashes:/)])
    )
    const payloadReads = visit.waves.map((wave) => wave.filter((call) => PAYLOAD_READ.test(call)))
    expect(payloadReads.map((reads) => reads.length)).toEqual([
      0,
      4,
      ...payloadReads.slice(2).map(() => 0),
    ])
    expect(backend.calls).toHaveLength(calls)
    // The page's image placeholders, from the index read beside the payloads: nothing after them.
    expect(visit.waves[1]).toContain(PLACEHOLDER_INDEX_READ)
    expect(visit.depth).toBe(2)
    expect(visit.provisional).toBe(false)
  })

  it('a full miss: every payload from the backend side by side, without a KV read first, and the placeholder index beside them', async () => {
    backend = fakeBackend()
    newIsolate()
    const visit = await measuredVisit('/en/about', backend.env())
    expect(visit).toMatchObject({ status: 200, page: 'miss' })
    const backendCalls = visit.waves.map((wave) => wave.filter((call) => BACKEND_CALL.test(call)))
    expect(backendCalls.map((wave) => wave.length)).toEqual([
      0,
      4,
      ...backendCalls.slice(2).map(() => 0),
    ])
    // No KV read of a payload before the backend's answers (the hashes say KV has none); the
    // entries are written behind them, while the page renders.
    const beforeBackend = visit.waves.slice(0, 2).flat()
    expect(beforeBackend.filter((call) => PAYLOAD_READ.test(call))).toEqual([])
    // The placeholders that earlier renders made, from the index read beside the backend calls: the
    // page is complete, and nothing waits after the backend.
    expect(visit.waves[1]).toContain(PLACEHOLDER_INDEX_READ)
    expect(visit.depth).toBe(2)
    expect(visit.provisional).toBe(false)
  })

  it('a first render of all (no payload, no placeholder anywhere): two round trips, provisional, and the next render is complete', async () => {
    backend = fakeBackend()
    await env.CONTENT_CACHE.delete(PLACEHOLDER_INDEX_KEY)
    for (const { name } of (await env.CONTENT_CACHE.list({ prefix: 'placeholder:' })).keys)
      await env.CONTENT_CACHE.delete(name)
    newIsolate()
    const first = await measuredVisit('/en/about', backend.env())
    expect(first).toMatchObject({ status: 200, page: 'miss', depth: 2, provisional: true })
    expect(first.html).not.toContain(PREVIEW)
    // After the response, the placeholders were computed and indexed: a new isolate's render has them.
    newIsolate()
    const next = await measuredVisit('/en/about', backend.env({ PAGE_CACHE_TTL: '0' }))
    expect(next).toMatchObject({ status: 200, provisional: false })
    expect(next.html).toContain(PREVIEW)
  })
})
