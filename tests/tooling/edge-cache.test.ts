/// <reference types="node" />
/**
 * The RFC 9111 shared cache the bench and the worker tests put in front of the worker
 * (scripts/lib/edge-cache.mjs), and the month simulated through it (scripts/bench/cold/edge-month.mjs):
 * Cloudflare-CDN-Cache-Control over Cache-Control, stale-while-revalidate, stale-if-error, purge by
 * Cache-Tag, a key per version; its clock is the test's.
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
function edgeBefore(answer: (request: Request) => Response) {
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
