/**
 * What a page tells its own telemetry (decision 0030): the Server-Timing header with the page
 * cache's level and the worker's time (src/middleware/server-timing), and `<meta name="deployment-version">`
 * with the deployed version that rendered it, kept by a cached copy.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeBackend } from '../support/worker/fake-backend'
import { fetchPage, newIsolate } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

const VERSION = '5f3c2a9e-8b1d-4c7e-9a6f-0d2e4b8c1a37'
const versioned = (id: string) => ({ CF_VERSION_METADATA: { id, tag: '', timestamp: '' } })

/** The header's metrics as `name -> { desc, dur }`. */
function serverTiming(response: Response): Record<string, { desc?: string; dur?: number }> {
  const metrics: Record<string, { desc?: string; dur?: number }> = {}
  for (const entry of (response.headers.get('Server-Timing') ?? '').split(',')) {
    const [name = '', ...params] = entry.split(';').map((part) => part.trim())
    if (!name) continue
    const metric: { desc?: string; dur?: number } = {}
    for (const param of params) {
      const [key, value = ''] = param.split('=')
      if (key === 'desc') metric.desc = value
      if (key === 'dur') metric.dur = Number(value)
    }
    metrics[name] = metric
  }
  return metrics
}

const versionOf = (html: string) =>
  /<meta name="deployment-version" content="([^"]*)"\/>/.exec(html)?.[1]

describe('Server-Timing on pages', () => {
  it('says a render was a page-cache miss and how long it took, then a hit and how long finding the copy took', async () => {
    backend = fakeBackend()
    const first = await fetchPage('/en/about', backend.env())
    expect(first.headers.get('X-Page-Cache')).toBe('miss')
    const miss = serverTiming(first)
    expect(Object.keys(miss)).toEqual(['cache', 'render'])
    expect(miss.cache).toEqual({ desc: 'miss' })
    expect(miss.render?.dur).toBeGreaterThanOrEqual(0)
    expect(Number.isInteger(miss.render?.dur)).toBe(true)

    await vi.waitFor(async () => {
      newIsolate()
      const again = await fetchPage('/en/about', backend!.env())
      expect(again.headers.get('X-Page-Cache')).toBe('hit')
      const hit = serverTiming(again)
      expect(Object.keys(hit)).toEqual(['cache'])
      expect(hit.cache?.desc).toBe('hit')
      expect(hit.cache?.dur).toBeGreaterThanOrEqual(0)
    })
  })

  it('says uncached for pages the page cache does not keep', async () => {
    backend = fakeBackend()
    const off = await fetchPage('/en/about', backend.env({ PAGE_CACHE_TTL: '0' }))
    expect(serverTiming(off).cache).toEqual({ desc: 'uncached' })
    expect(serverTiming(off).render?.dur).toBeGreaterThanOrEqual(0)
    const missing = await fetchPage('/en/no-such-page', backend.env())
    expect(missing.status).toBe(404)
    expect(serverTiming(missing).cache).toEqual({ desc: 'uncached' })
  })

  it('names nothing but the cache level and durations', async () => {
    backend = fakeBackend()
    const page = await fetchPage('/ru', backend.env(versioned(VERSION)))
    const header = page.headers.get('Server-Timing') ?? ''
    expect(header).toMatch(/^cache;desc=(miss|hit|uncached)(;dur=\d+)?(, render;dur=\d+)?$/)
    expect(header).not.toContain(VERSION)
    expect(header).not.toContain(backend.origin)
  })

  it('is not sent with what is not a page: robots.txt, a beacon', async () => {
    backend = fakeBackend()
    const robots = await fetchPage('/robots.txt', backend.env())
    expect(robots.status).toBe(200)
    expect(robots.headers.has('Server-Timing')).toBe(false)
    const beacon = await fetchPage('/api/vitals', backend.env(), {
      method: 'POST',
      headers: { Origin: 'http://localhost', 'CF-Connecting-IP': '127.0.0.1' },
      body: JSON.stringify({
        page: '/',
        metrics: [{ name: 'TTFB', value: 1, rating: 'good', id: 'a' }],
      }),
    })
    expect(beacon.status).toBe(204)
    expect(beacon.headers.has('Server-Timing')).toBe(false)
  })
})

describe('<meta name="deployment-version">', () => {
  it('names the deployed version that rendered the page, and a copy from the page cache keeps it', async () => {
    backend = fakeBackend()
    const first = await fetchPage('/en/enterprises', backend.env(versioned(VERSION)))
    expect(versionOf(await first.text())).toBe(VERSION)
    await vi.waitFor(async () => {
      const again = await fetchPage('/en/enterprises', backend!.env(versioned(VERSION)))
      expect(again.headers.get('X-Page-Cache')).toBe('hit')
      expect(versionOf(await again.text())).toBe(VERSION)
    })
  })

  it('is left out without the version metadata binding, or with an id that is not one', async () => {
    backend = fakeBackend()
    const unbound = await fetchPage('/en', backend.env({ CF_VERSION_METADATA: undefined }))
    expect(await unbound.text()).not.toContain('deployment-version')
    const odd = await fetchPage('/ru', backend.env(versioned('"><script>')))
    expect(await odd.text()).not.toContain('deployment-version')
  })
})
