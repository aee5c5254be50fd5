/**
 * How many round trips that can leave the Cloudflare location a visit waits for before its first
 * byte, at each cold level it can meet (docs/decisions/0041-edge-copies-arrive-fresh-one-trip-leaves.md):
 * at most one wherever the worker runs, but for the full miss to the CMS. Every KV, Cache API and
 * backend call is held and released in waves (scripts/lib/io-chain.ts), the location's own calls
 * (the Cache API) first: the waves are the chain of sequential steps, whatever the machine's
 * speed. The scheduled refresh runs (its heartbeat is fresh), as in production.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HEARTBEAT_KEY } from '../../src/freshness/refresh-schedule'
import type { Bindings } from '../../src/env'
import { PLACEHOLDER_INDEX_KEY } from '../../src/images/placeholders'
import {
  ioChain,
  recordCaches,
  recordedKv,
  recordFetch,
  stepsLeaving,
} from '../../scripts/lib/io-chain'
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

/** One visit with every KV, Cache API and backend call gated; its steps and calls. */
async function measuredVisit(path: string, bindings: Bindings) {
  // Imported before the chain holds I/O: this test's isolate of the site.
  const { default: worker } = await import('../../src/index')
  const chain = ioChain()
  const undo = [recordCaches(() => chain), recordFetch(() => chain)]
  const gated = {
    ...bindings,
    CONTENT_CACHE: recordedKv(bindings.CONTENT_CACHE, 'kv', () => chain),
  }
  const ctx = createExecutionContext()
  try {
    const { response, steps } = await chain.measure(() =>
      worker.fetch(new Request(new URL(path, 'http://localhost')), gated, ctx)
    )
    const html = await response.text()
    await waitOnExecutionContext(ctx)
    return {
      status: response.status,
      page: response.headers.get('X-Page-Cache'),
      provisional: (response.headers.get('ETag') ?? '').endsWith('.provisional"'),
      html,
      depth: steps.length,
      leaving: stepsLeaving(steps),
      waves: steps.map((step) => step.calls),
      leavingWaves: steps.filter((step) => step.leaves).map((step) => step.calls),
    }
  } finally {
    for (const restore of undo.reverse()) restore()
  }
}

const PAYLOAD_READ = /^kv-read kv:payload:v2:/
const HASHES_READ = /^kv-read kv:payload-hashes:/
const CACHE_READ = /^cache-read /
const BACKEND_CALL = /^backend /
const PLACEHOLDER_INDEX_READ = `kv-read kv:${PLACEHOLDER_INDEX_KEY}`
const HEARTBEAT_READ = `kv-read kv:${HEARTBEAT_KEY}`
/** A photo painted with its placeholder, as the markup carries it (tests/worker/image-markup.test.ts). */
const PREVIEW = 'url(data:image/webp\\3b base64,'

describe('round trips before the first byte', () => {
  it('a page in the Cache API, in a new isolate: the Cache API at the location, then one trip that can leave it (payload hashes and heartbeat side by side), no backend call', async () => {
    backend = fakeBackend()
    const bindings = backend.env()
    await fetchPage('/en/about', bindings)
    newIsolate()
    const visit = await measuredVisit('/en/about', bindings)
    expect(visit).toMatchObject({ status: 200, page: 'hit', leaving: 1 })
    expect(visit.waves[0]).toEqual([expect.stringMatching(CACHE_READ)])
    expect(visit.leavingWaves[0]).toEqual(
      expect.arrayContaining([expect.stringMatching(HASHES_READ), HEARTBEAT_READ])
    )
    expect(visit.waves.flat().filter((call) => BACKEND_CALL.test(call))).toEqual([])
  })

  it('the contact page about a project, in the Cache API, in a new isolate: the project looked up in the enterprises payload beside the payload hashes, one trip that can leave the location', async () => {
    backend = fakeBackend()
    const bindings = backend.env()
    await fetchPage('/en/contact-us?project=3', bindings)
    newIsolate()
    const visit = await measuredVisit('/en/contact-us?project=3', bindings)
    expect(visit).toMatchObject({ status: 200, page: 'hit', leaving: 1 })
    expect(visit.leavingWaves[0]).toEqual(
      expect.arrayContaining([
        expect.stringMatching(PAYLOAD_READ),
        expect.stringMatching(HASHES_READ),
        HEARTBEAT_READ,
      ])
    )
    expect(visit.html).toContain('Northern Avenue Business Centre')
  })

  it("a page in this isolate's memory: at most the payload hashes, one trip that can leave the location, and no Cache API read", async () => {
    backend = fakeBackend()
    const bindings = backend.env()
    await fetchPage('/en/contact-us', bindings)
    const visit = await measuredVisit('/en/contact-us', bindings)
    expect(visit).toMatchObject({ status: 200, page: 'hit' })
    expect(visit.leaving).toBeLessThanOrEqual(1)
    expect(visit.waves.flat().filter((call) => CACHE_READ.test(call))).toEqual([])
  })

  it('a page missing from the Cache API with its payloads in KV: every payload, the placeholder index and the payload hashes read side by side, one trip that can leave the location', async () => {
    backend = fakeBackend()
    const bindings = backend.env()
    await fetchPage('/en/about', backend.env({ PAGE_CACHE_TTL: '0' }))
    const calls = backend.calls.length
    newIsolate()
    const visit = await measuredVisit('/en/about', bindings)
    expect(visit).toMatchObject({ status: 200, page: 'miss', leaving: 1 })
    expect(visit.waves[0]).toEqual([expect.stringMatching(CACHE_READ)])
    const [trip] = visit.leavingWaves
    expect(trip!.filter((call) => PAYLOAD_READ.test(call))).toHaveLength(4)
    expect(trip).toEqual(
      expect.arrayContaining([expect.stringMatching(HASHES_READ), PLACEHOLDER_INDEX_READ])
    )
    expect(backend.calls).toHaveLength(calls)
    expect(visit.provisional).toBe(false)
  })

  it('a full miss: KV and the payload hashes side by side, then every payload from the backend side by side, the only level with two trips that can leave the location', async () => {
    backend = fakeBackend()
    newIsolate()
    const visit = await measuredVisit('/en/about', backend.env())
    expect(visit).toMatchObject({ status: 200, page: 'miss', leaving: 2 })
    const [first, second] = visit.leavingWaves
    expect(first).toEqual(
      expect.arrayContaining([expect.stringMatching(HASHES_READ), PLACEHOLDER_INDEX_READ])
    )
    expect(first!.filter((call) => BACKEND_CALL.test(call))).toEqual([])
    expect(second!.filter((call) => BACKEND_CALL.test(call))).toHaveLength(4)
    // The placeholders that earlier renders made, from the index: the page is complete.
    expect(visit.provisional).toBe(false)
  })

  it('a first render of all (no payload, no placeholder anywhere): two trips that can leave the location, provisional, and the next render is complete', async () => {
    backend = fakeBackend()
    await env.CONTENT_CACHE.delete(PLACEHOLDER_INDEX_KEY)
    for (const { name } of (await env.CONTENT_CACHE.list({ prefix: 'placeholder:' })).keys)
      await env.CONTENT_CACHE.delete(name)
    newIsolate()
    const first = await measuredVisit('/en/about', backend.env())
    expect(first).toMatchObject({ status: 200, page: 'miss', leaving: 2, provisional: true })
    expect(first.html).not.toContain(PREVIEW)
    // After the response, the placeholders were computed and indexed: a new isolate's render has them.
    newIsolate()
    const next = await measuredVisit('/en/about', backend.env({ PAGE_CACHE_TTL: '0' }))
    expect(next).toMatchObject({ status: 200, provisional: false })
    expect(next.html).toContain(PREVIEW)
  })
})
