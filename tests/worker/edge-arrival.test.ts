/**
 * Copies reach the edge fresh (docs/decisions/0041-edge-copies-arrive-fresh-one-trip-leaves.md):
 * what the worker answers from its page cache was checked against the current payload hashes, so
 * for the edge it is as current as a new render, however long ago it was rendered. Read through an
 * RFC 9111 shared cache (scripts/lib/edge-cache.mjs, on http-cache-semantics) with its own clock;
 * the stored copy is aged by its timestamp, not by waiting.
 */
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEdgeCache } from '../../scripts/lib/edge-cache.mjs'
import { HEARTBEAT_KEY } from '../../src/freshness/refresh-schedule'
import type { Bindings } from '../../src/env'
import { BROWSER_CACHE_CONTROL, pageCacheKey, STORED_AT } from '../../src/freshness'
import { fakeBackend } from '../support/worker/fake-backend'
import { fetchPage, newIsolate } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
beforeEach(async () => {
  await env.CONTENT_CACHE.put(HEARTBEAT_KEY, String(Date.now()))
})
afterEach(() => backend?.restore())

const ADDRESS = 'http://localhost/en/about'
const NAVIGATION = { accept: 'text/html', 'accept-encoding': 'gzip' }

/** Moves the Cache API copy's render time `seconds` into the past, as if it had waited that long. */
async function ageStoredCopy(bindings: Bindings, seconds: number) {
  const key = pageCacheKey(ADDRESS, bindings)
  const stored = await caches.default.match(key)
  expect(stored, 'the page cache holds the page').toBeDefined()
  const headers = new Headers(stored!.headers)
  const renderedAt = Number(headers.get(STORED_AT)) - seconds * 1000
  headers.set(STORED_AT, String(renderedAt))
  await caches.default.put(key, new Response(await stored!.arrayBuffer(), { headers }))
  newIsolate()
  return renderedAt
}

describe('a copy from the page cache reaches the edge fresh', () => {
  it('is stored fresh for PAGE_CACHE_TTL by an RFC 9111 cache when the worker answers it 70 s after rendering it', async () => {
    backend = fakeBackend()
    const bindings = backend.env()
    // A complete page (its placeholders settled by a first render), in the Cache API.
    await fetchPage('/ru/about', backend.env({ PAGE_CACHE_TTL: '0' }))
    await fetchPage('/en/about', bindings)
    const renderedAt = await ageStoredCopy(bindings, 70)

    let clock = Date.now()
    const answers: Response[] = []
    const edge = createEdgeCache({
      now: () => clock,
      origin: async (request) => {
        const url = new URL(request.url)
        const answer = await fetchPage(url.pathname, bindings, { headers: request.headers })
        answers.push(answer.clone())
        return answer
      },
    })
    const visit = () => edge.fetch(new Request(ADDRESS, { headers: NAVIGATION }))

    const first = await visit()
    expect(first.outcome).toBe('miss')
    expect(answers[0]!.headers.get('X-Page-Cache')).toBe('hit')
    // The copy answered is the one rendered 70 s ago, not a new render.
    const stored = await caches.default.match(pageCacheKey(ADDRESS, bindings))
    expect(Number(stored?.headers.get(STORED_AT))).toBe(renderedAt)
    const copy = edge.policyFor(new Request(ADDRESS, { headers: NAVIGATION }))
    expect(copy?.stale()).toBe(false)
    expect(copy?.age()).toBe(0)
    expect(copy?.maxAge()).toBe(60)

    // Within PAGE_CACHE_TTL of its arrival the edge answers without the worker.
    clock += 59_000
    expect((await visit()).outcome).toBe('fresh')
    expect(answers).toHaveLength(1)
    // Browsers' headers are as a render sends them: revalidate every navigation.
    expect(first.response.headers.get('Cache-Control')).toBe(BROWSER_CACHE_CONTROL)
    expect(first.response.headers.has('Cloudflare-CDN-Cache-Control')).toBe(false)
  })

  it('sends no header that ages the copy: no Age, no render-time Date', async () => {
    backend = fakeBackend()
    const bindings = backend.env()
    await fetchPage('/ru/about', backend.env({ PAGE_CACHE_TTL: '0' }))
    await fetchPage('/en/about', bindings)
    await ageStoredCopy(bindings, 3600)
    const hit = await fetchPage('/en/about', bindings)
    expect(hit.headers.get('X-Page-Cache')).toBe('hit')
    expect(hit.headers.has('Age')).toBe(false)
    expect(hit.headers.has('Date')).toBe(false)
    expect(hit.headers.has('Expires')).toBe(false)
  })
})
