/**
 * The harness worker (scripts/lib/harness-worker/): what the browser tests' server and the bench
 * put around the site's worker. The site itself has none of it: its plain page is an unknown
 * address, the bypass headers change nothing, and a beacon is answered 204.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BYPASS_HEADER, BYPASS_TOKEN_HEADER } from '../../scripts/lib/harness-worker/cache-bypass'
import { FLOOR_PAGE_HTML, FLOOR_PAGE_PATH } from '../../scripts/lib/harness-worker/floor-page'
import { fakeBackend } from '../support/worker/fake-backend'
import { recordingDataset } from '../support/worker/recording-dataset'
import { fetchPage, fetchThroughHarness } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

describe('the bench floor page', () => {
  it('is an unknown page (404) of the site itself, as in every deployment', async () => {
    backend = fakeBackend()
    const response = await fetchPage(FLOOR_PAGE_PATH, backend.env())
    expect(response.status).toBe(404)
    expect(await response.text()).not.toContain('A plain page')
  })

  it("is served by the harness with the site's security headers", async () => {
    backend = fakeBackend()
    const response = await fetchThroughHarness(FLOOR_PAGE_PATH, backend.env())
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/)
    expect(response.headers.get('Content-Security-Policy')).toContain("script-src 'self'")
    expect(await response.text()).toBe(FLOOR_PAGE_HTML)
  })
})

describe('the bench bypass', () => {
  const token = 'bench-secret'
  const bypass = (mode: string, given = token) => ({
    headers: { [BYPASS_HEADER]: mode, [BYPASS_TOKEN_HEADER]: given },
  })

  it("renders from cached payloads with 'page', and loads every payload with 'all'", async () => {
    backend = fakeBackend()
    const bindings = { ...backend.env(), CACHE_BYPASS_TOKEN: token }
    await fetchThroughHarness('/en', bindings)
    const calls = backend.calls.length

    const page = await fetchThroughHarness('/en', bindings, bypass('page'))
    expect(page.headers.get('X-Page-Cache')).toBe('bypass')
    expect(await page.text()).toContain('<html lang="en">')
    expect(backend.calls).toHaveLength(calls)

    const all = await fetchThroughHarness('/en', bindings, bypass('all'))
    expect(all.headers.get('X-Page-Cache')).toBe('bypass')
    expect(backend.callsTo('get-home-page')).toHaveLength(2)
  })

  it('is ignored without the right token, or when no token is configured, and by the site itself', async () => {
    backend = fakeBackend()
    await fetchThroughHarness('/en', { ...backend.env(), CACHE_BYPASS_TOKEN: token })
    const wrong = await fetchThroughHarness(
      '/en',
      { ...backend.env(), CACHE_BYPASS_TOKEN: token },
      bypass('all', 'guess')
    )
    expect(wrong.headers.get('X-Page-Cache')).toBe('hit')
    const unset = await fetchThroughHarness(
      '/en',
      { ...backend.env(), CACHE_BYPASS_TOKEN: '' },
      bypass('all', '')
    )
    expect(unset.headers.get('X-Page-Cache')).toBe('hit')
    const noCache = await fetchThroughHarness('/en', backend.env(), {
      headers: { 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
    })
    expect(noCache.headers.get('X-Page-Cache')).toBe('hit')
    const site = await fetchPage('/en', backend.env(), bypass('all'))
    expect(site.headers.get('X-Page-Cache')).toBe('hit')
  })

  it("says bypass in X-Page-Cache, and uncached in the page's Server-Timing, as the site says of a page it does not keep", async () => {
    backend = fakeBackend()
    const bypassed = await fetchThroughHarness(
      '/en/about',
      { ...backend.env(), CACHE_BYPASS_TOKEN: 'bench-token' },
      bypass('page', 'bench-token')
    )
    expect(bypassed.headers.get('X-Page-Cache')).toBe('bypass')
    expect(bypassed.headers.get('Server-Timing')).toMatch(/^cache;desc=uncached, render;dur=\d+$/)
  })
})

describe("the beacons' echo", () => {
  const beacon = {
    page: '/en/about',
    device: 'tablet',
    served: { cache: 'hit', ms: 3 },
    metrics: [
      { name: 'TTFB', value: 80, rating: 'good', id: 'a' },
      { name: 'LCP', value: 900, rating: 'good', id: 'b' },
    ],
  }
  const send = (fetcher: typeof fetchPage, bindings: Parameters<typeof fetchPage>[1]) =>
    fetcher('/api/vitals', bindings, {
      method: 'POST',
      headers: {
        'Content-Type': 'text/plain;charset=UTF-8',
        Origin: 'http://localhost',
        'CF-Connecting-IP': `2001:db8:e::${Math.floor(Math.random() * 0xffff).toString(16)}`,
      },
      body: JSON.stringify(beacon),
    })

  it('answers with the data points written through the harness (the browser tests), and 204 from the site itself', async () => {
    backend = fakeBackend()
    const { points, dataset: VITALS } = recordingDataset()
    const echoed = await send(fetchThroughHarness, backend.env({ VITALS }))
    expect(echoed.status).toBe(200)
    expect(echoed.headers.get('Cache-Control')).toBe('no-store')
    expect(await echoed.json()).toEqual({ points })
    expect(points).toHaveLength(2)
    expect((await send(fetchPage, backend.env({ VITALS }))).status).toBe(204)
  })
})
