/// <reference types="node" />
/**
 * The RFC 9111 shared cache the bench, the worker tests and the smoke's stand-in for Workers Cache
 * put in front of the worker (scripts/lib/edge-cache.mjs), and the month simulated through it
 * (scripts/bench/cold/edge-month.mjs): Cloudflare-CDN-Cache-Control, then CDN-Cache-Control, over
 * Cache-Control, a visitor's If-None-Match, stale-while-revalidate, stale-if-error, a 304's
 * header fields (RFC 9111, sections 3.2 and 4.3.4, quoted beside their tests), purge by Cache-Tag
 * (during a revalidation or a miss too), a key per version; its clock is the test's.
 */
import { describe, expect, it } from 'vitest'
import { createEdgeCache } from '../../scripts/lib/edge-cache.mjs'
import { simulateVisits } from '../../scripts/bench/cold/edge-month.mjs'
import { levelShares } from '../../scripts/bench/cold/visit-model.mjs'

const PAGE_HEADERS = {
  'Cache-Control': 'public, max-age=0, must-revalidate',
  'Cloudflare-CDN-Cache-Control':
    'public, max-age=60, stale-while-revalidate=604800, stale-if-error=604800',
  ETag: 'W/"v1"',
  'Cache-Tag': 'page:/en,payload:navbar',
}

/** An edge in front of a worker that answers from `answer` and counts its calls. */
function edgeBefore(answer: (request: Request) => Response | Promise<Response>) {
  const state = { clock: 0, version: 'v1', asked: [] as Request[] }
  const edge = createEdgeCache({
    now: () => state.clock,
    version: () => state.version,
    origin: async (request) => {
      state.asked.push(request)
      return answer(request)
    },
  })
  const visit = () => edge.fetch(new Request('https://site.example/en'))
  return { edge, state, visit }
}

const page = () => new Response('<html></html>', { headers: PAGE_HEADERS })

describe('the edge in front of the worker', () => {
  it('keeps a page by Cloudflare-CDN-Cache-Control, not by the browsers’ Cache-Control, and passes only the latter on', async () => {
    const { state, visit } = edgeBefore(page)
    expect((await visit()).outcome).toBe('miss')
    state.clock = 59_000
    const fresh = await visit()
    expect(fresh.outcome).toBe('fresh')
    expect(fresh.response.headers.get('Cache-Control')).toBe(PAGE_HEADERS['Cache-Control'])
    expect(fresh.response.headers.has('Cloudflare-CDN-Cache-Control')).toBe(false)
    expect(fresh.response.headers.get('Age')).toBe('59')
    expect(state.asked).toHaveLength(1)
  })

  it('answers a stale copy at once and revalidates it behind the visitor with its ETag; a 304 renews it', async () => {
    const { state, visit } = edgeBefore((request) =>
      request.headers.get('If-None-Match') === 'W/"v1"'
        ? new Response(null, { status: 304, headers: PAGE_HEADERS })
        : page()
    )
    await visit()
    state.clock = 3_600_000
    const stale = await visit()
    expect(stale.outcome).toBe('stale')
    await stale.background
    expect(state.asked.at(-1)!.headers.get('If-None-Match')).toBe('W/"v1"')
    expect((await visit()).outcome).toBe('fresh')
  })

  it('answers a stale copy when the worker fails, within stale-if-error, and passes the error on past it', async () => {
    let failing = false
    const headers = {
      ...PAGE_HEADERS,
      'Cloudflare-CDN-Cache-Control': 'max-age=60, stale-if-error=600',
    }
    const { state, visit } = edgeBefore(() =>
      failing ? new Response('down', { status: 503 }) : new Response('<html></html>', { headers })
    )
    await visit()
    failing = true
    state.clock = 120_000
    const kept = await visit()
    expect(kept.outcome).toBe('stale-if-error')
    expect(kept.response.status).toBe(200)
    state.clock = 700_000
    expect((await visit()).response.status).toBe(503)
  })

  it('keeps a page by CDN-Cache-Control when it has no Cloudflare-CDN-Cache-Control, and passes CDN-Cache-Control on', async () => {
    const { state, visit } = edgeBefore(
      () =>
        new Response('<html></html>', {
          headers: {
            'Cache-Control': 'max-age=0, must-revalidate',
            'CDN-Cache-Control': 'max-age=60',
          },
        })
    )
    await visit()
    state.clock = 59_000
    const fresh = await visit()
    expect(fresh.outcome).toBe('fresh')
    expect(fresh.response.headers.get('CDN-Cache-Control')).toBe('max-age=60')
    expect(state.asked).toHaveLength(1)
  })

  it('answers a visitor whose If-None-Match names the stored copy 304, without a body or the worker', async () => {
    const { edge, state } = edgeBefore(page)
    const conditional = (etag: string) =>
      edge.fetch(new Request('https://site.example/en', { headers: { 'If-None-Match': etag } }))
    await edge.fetch(new Request('https://site.example/en'))
    const held = await conditional('"v0", W/"v1"')
    expect(held.outcome).toBe('fresh')
    expect(held.response.status).toBe(304)
    expect(held.response.body).toBeNull()
    expect(held.response.headers.get('ETag')).toBe('W/"v1"')
    expect((await conditional('W/"v0"')).response.status).toBe(200)
    expect(state.asked).toHaveLength(1)
  })

  it('does not bring back a copy purged while the worker revalidated it', async () => {
    let answerRevalidation = () => {}
    const revalidationMayAnswer = new Promise<void>((resolve) => (answerRevalidation = resolve))
    const { edge, state, visit } = edgeBefore(async (request) => {
      if (!request.headers.has('If-None-Match')) return page()
      await revalidationMayAnswer
      return new Response(null, { status: 304, headers: PAGE_HEADERS })
    })
    await visit()
    state.clock = 3_600_000
    const stale = await visit()
    expect(stale.outcome).toBe('stale')
    expect(edge.purgeTags(['payload:navbar'])).toBe(1)
    answerRevalidation()
    await stale.background
    expect(edge.size).toBe(0)
    expect((await visit()).outcome).toBe('miss')
  })

  // RFC 9111, section 4.3.4: "the cache MUST [...] use other header fields provided in the 304
  // (Not Modified) response to replace all instances of the corresponding header fields in the
  // stored response"; section 3.2: "the cache MUST add each header field in the provided response
  // to the stored response, replacing field values that are already present" (but Content-Length).
  it('updates the stored headers from a 304: its new lifetime is obeyed, its fields are served, its arrival is the age’s start', async () => {
    const renewedHeaders = {
      ...PAGE_HEADERS,
      'Cache-Control': 'public, max-age=0, no-cache',
      'Cloudflare-CDN-Cache-Control': 'public, max-age=600',
      'Cache-Tag': 'page:/en,payload:navbar,payload:meta',
      'X-Build': '2',
      'Content-Length': '0',
    }
    const { edge, state, visit } = edgeBefore((request) =>
      request.headers.get('If-None-Match') === 'W/"v1"'
        ? new Response(null, { status: 304, headers: renewedHeaders })
        : page()
    )
    await visit()
    state.clock = 3_600_000
    const stale = await visit()
    expect(stale.outcome).toBe('stale')
    await stale.background
    expect(state.asked).toHaveLength(2)

    state.clock = 3_600_000 + 590_000
    const renewed = await visit()
    // Fresh for the 304's 600 s, not the stored copy's 60 s.
    expect(renewed.outcome).toBe('fresh')
    expect(renewed.response.headers.get('Cache-Control')).toBe('public, max-age=0, no-cache')
    expect(renewed.response.headers.get('X-Build')).toBe('2')
    expect(renewed.response.headers.get('ETag')).toBe('W/"v1"')
    expect(renewed.response.headers.get('Age')).toBe('590')
    expect(renewed.response.headers.has('Cloudflare-CDN-Cache-Control')).toBe(false)
    // The stored body is kept, and with it its own length.
    expect(renewed.response.headers.get('Content-Length')).toBeNull()
    expect(await renewed.response.text()).toBe('<html></html>')
    // A purge reaches it by the tags the 304 gave it.
    expect(edge.purgeTags(['payload:meta'])).toBe(1)
    expect(state.asked).toHaveLength(2)
  })

  // RFC 9111, section 4.3.4: "If none of the stored responses contain the same strong validator,
  // then the cache MUST NOT use the new response to update any stored responses."
  it('does not update the copy from a 304 whose strong ETag names another representation: it asks again without validators', async () => {
    let version = 'v1'
    const { state, visit } = edgeBefore((request) => {
      if (request.headers.has('If-None-Match'))
        return new Response(null, {
          status: 304,
          headers: { ...PAGE_HEADERS, ETag: '"v2"', 'X-Build': '2' },
        })
      return new Response(`<html>${version}</html>`, {
        headers: { ...PAGE_HEADERS, ETag: `W/"${version}"` },
      })
    })
    await visit()
    version = 'v2'
    state.clock = 120_000
    const stale = await visit()
    await stale.background
    expect(state.asked.map((request) => request.headers.get('If-None-Match'))).toEqual([
      null,
      'W/"v1"',
      null,
    ])
    const renewed = await visit()
    expect(renewed.outcome).toBe('fresh')
    expect(await renewed.response.text()).toBe('<html>v2</html>')
    expect(renewed.response.headers.get('ETag')).toBe('W/"v2"')
    expect(renewed.response.headers.has('X-Build')).toBe(false)
  })

  it('does not keep a page the worker answered 200 to a revalidation while the copy was purged', async () => {
    let answerRevalidation = () => {}
    const revalidationMayAnswer = new Promise<void>((resolve) => (answerRevalidation = resolve))
    const { edge, state, visit } = edgeBefore(async (request) => {
      if (!request.headers.has('If-None-Match')) return page()
      await revalidationMayAnswer
      return new Response('<html>rendered before the purge</html>', {
        headers: { ...PAGE_HEADERS, ETag: 'W/"v2"' },
      })
    })
    await visit()
    state.clock = 3_600_000
    const stale = await visit()
    expect(stale.outcome).toBe('stale')
    expect(edge.purgeTags(['payload:navbar'])).toBe(1)
    answerRevalidation()
    await stale.background
    expect(edge.size).toBe(0)
    const next = await visit()
    expect(next.outcome).toBe('miss')
    expect(state.asked.at(-1)!.headers.has('If-None-Match')).toBe(false)
  })

  it('passes on, but does not keep, a miss’s answer tagged with what was purged while the worker gave it', async () => {
    let answerMiss = () => {}
    const missMayAnswer = new Promise<void>((resolve) => (answerMiss = resolve))
    const { edge, visit } = edgeBefore(async () => {
      await missMayAnswer
      return page()
    })
    const miss = visit()
    expect(edge.purgeTags(['payload:navbar'])).toBe(0)
    answerMiss()
    expect((await miss).response.status).toBe(200)
    expect(edge.size).toBe(0)
    expect((await visit()).outcome).toBe('miss')
    expect(edge.size).toBe(1)
  })

  it('drops copies by Cache-Tag, by version, and when idle for longer than the caller assumes', async () => {
    const { edge, state, visit } = edgeBefore(page)
    await visit()
    expect(edge.purgeTags(['payload:contact'])).toBe(0)
    expect(edge.purgeTags(['payload:navbar'])).toBe(1)
    expect((await visit()).outcome).toBe('miss')
    state.version = 'v2'
    expect((await visit()).outcome).toBe('miss')
    state.clock = 30 * 60_000
    edge.evictIdle(30 * 60_000)
    expect(edge.size).toBe(0)
  })
})

describe('a month simulated through the edge', () => {
  const edgeHeaders = {
    'Cache-Control': PAGE_HEADERS['Cache-Control'],
    'Cloudflare-CDN-Cache-Control': PAGE_HEADERS['Cloudflare-CDN-Cache-Control'],
  }
  const month = (idleS: number, changes = 0, deploys = 0) =>
    simulateVisits({
      visitsPerDay: 300,
      pages: 15,
      days: 30,
      idleS,
      changes,
      deploys,
      isolateIdleS: 60,
      kvCacheTtlS: 60,
      edgeHeaders,
    })

  it('agrees with the closed form when nothing is evicted, purged or deployed', async () => {
    const simulated = await month(Infinity)
    const closed = levelShares({
      visitsPerDay: 300,
      pages: 15,
      freshS: 60,
      staleS: 604_800,
      cacheApiS: 604_860,
      isolateIdleS: 60,
      kvCacheTtlS: 60,
    })
    expect((simulated.edge.fresh ?? 0) / simulated.visits).toBeCloseTo(closed.a, 2)
    // Only each page's first visit misses.
    expect(simulated.edge.miss).toBe(15)
  })

  it('turns most visits into misses that wait for the worker when the location keeps an idle page 30 minutes', async () => {
    const kept = await month(Infinity, 30, 4)
    const dropped = await month(30 * 60, 30, 4)
    expect((dropped.edge.miss ?? 0) / dropped.visits).toBeGreaterThan(0.5)
    // Purges and deploys alone: every page once per change and per deploy.
    expect(kept.edge.miss).toBeLessThanOrEqual(15 * (1 + 30 + 4))
    expect(dropped.runs.e).toBeGreaterThan(kept.runs.e)
  })
})
