/**
 * The page cache (src/freshness/): through the whole site against a fake backend that
 * counts calls, and on its own around a small app with an injected clock, since fake timers do
 * not age what the Cache API holds.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { payloadsReadBy } from '../../src/freshness'
import { payloadHashesKey, writePayloadHashes } from '../../src/freshness/payload-hashes'
import { HEARTBEAT_KEY } from '../../src/freshness/refresh-schedule'
import type { AppEnv, Bindings } from '../../src/env'
import {
  acceptsGzip,
  pageCache,
  pageCacheKey,
  PROVISIONAL_SECONDS,
  STALE_SECONDS,
  STORED_AT,
} from '../../src/freshness'
import { fakeBackend, json } from '../support/worker/fake-backend'
import { fetchPage, newIsolate } from '../support/worker/worker'
import { PAGE_ADDRESSES } from '../support/page-addresses'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

describe('GET pages through the page cache', () => {
  it('serves the second visit from the Cache API with no backend call and no render', async () => {
    backend = fakeBackend()
    // The about page's image placeholders are settled (the same sources in every language), so the
    // first visit is a complete page rather than a provisional one.
    await fetchPage('/ru/about', backend.env({ PAGE_CACHE_TTL: '0' }))
    const first = await fetchPage('/en/about', backend.env())
    expect(first.headers.get('X-Page-Cache')).toBe('miss')
    expect(first.headers.get('Cache-Control')).toBe('public, max-age=0, must-revalidate')
    expect(first.headers.get('Cloudflare-CDN-Cache-Control')).toBe(
      `public, max-age=60, stale-while-revalidate=${STALE_SECONDS}, stale-if-error=${STALE_SECONDS}`
    )
    const html = await first.text()
    const calls = backend.calls.length
    // As in another isolate: nothing in memory, only what the Cache API and KV hold. (Not a stamp
    // remembered for a second either: on a loaded machine the second visit may come later.)
    newIsolate()

    const second = await fetchPage('/en/about', backend.env())
    expect(second.status).toBe(200)
    expect(second.headers.get('X-Page-Cache')).toBe('hit')
    expect(second.headers.get('Content-Type')).toMatch(/^text\/html/)
    expect(second.headers.get('ETag')).toMatch(/^W\/"[\w-]+"$/)
    expect(second.headers.has('Age')).toBe(false)
    expect(second.headers.has(STORED_AT)).toBe(false)
    expect(await second.text()).toBe(html)
    expect(backend.calls).toHaveLength(calls)
  })

  it('streams the first visit chunked, and answers later visits with the stored length', async () => {
    backend = fakeBackend()
    const miss = await fetchPage('/en/contact-us', backend.env())
    expect(miss.headers.get('Transfer-Encoding')).toBe('chunked')
    const hit = await fetchPage('/en/contact-us', backend.env(), {
      headers: { 'Accept-Encoding': 'gzip' },
    })
    expect(hit.headers.get('X-Page-Cache')).toBe('hit')
    expect(hit.headers.has('Transfer-Encoding')).toBe(false)
  })

  it('says that a rendered page varies with Accept-Encoding, which the platform compresses it for', async () => {
    backend = fakeBackend()
    const miss = await fetchPage('/ru/enterprises', backend.env())
    expect(miss.headers.get('X-Page-Cache')).toBe('miss')
    expect(miss.headers.get('Vary')).toBe('Accept-Encoding')
    const hit = await fetchPage('/ru/enterprises', backend.env())
    expect(hit.headers.get('X-Page-Cache')).toBe('hit')
    expect(hit.headers.get('Vary')).toBe('Accept-Encoding')
  })

  it('answers HEAD with the headers GET gets, and stores the page it rendered', async () => {
    backend = fakeBackend()
    const miss = await fetchPage('/en/contact-us', backend.env(), { method: 'HEAD' })
    expect(miss.status).toBe(200)
    expect(await miss.text()).toBe('')
    expect(miss.headers.get('X-Page-Cache')).toBe('miss')
    expect(miss.headers.get('Cache-Control')).toBe('public, max-age=0, must-revalidate')
    expect(miss.headers.get('Cloudflare-CDN-Cache-Control')).toBe(
      `public, max-age=60, stale-while-revalidate=${STALE_SECONDS}, stale-if-error=${STALE_SECONDS}`
    )
    const calls = backend.calls.length

    const head = await fetchPage('/en/contact-us', backend.env(), { method: 'HEAD' })
    expect(head.headers.get('X-Page-Cache')).toBe('hit')
    expect(head.headers.get('ETag')).toMatch(/^W\/"[\w-]+"$/)
    expect(await head.text()).toBe('')
    const get = await fetchPage('/en/contact-us', backend.env())
    expect(get.headers.get('X-Page-Cache')).toBe('hit')
    expect(get.headers.get('ETag')).toBe(head.headers.get('ETag'))
    expect(await get.text()).toContain('</html>')
    expect(backend.calls).toHaveLength(calls)
  })

  it("answers from the isolate's memory without a Cache API round trip", async () => {
    backend = fakeBackend()
    const bindings = backend.env()
    const html = await (await fetchPage('/en/enterprises', bindings)).text()
    await caches.default.delete(pageCacheKey('http://localhost/en/enterprises', bindings))
    const second = await fetchPage('/en/enterprises', bindings)
    expect(second.headers.get('X-Page-Cache')).toBe('hit')
    expect(await second.text()).toBe(html)
  })

  it('answers 304 to an If-None-Match that matches, and the page to one that does not', async () => {
    backend = fakeBackend()
    await fetchPage('/ru', backend.env())
    const etag = (await fetchPage('/ru', backend.env())).headers.get('ETag')!
    for (const ifNoneMatch of [etag, etag.replace(/^W\//, ''), `"other", ${etag}`, '*']) {
      const response = await fetchPage('/ru', backend.env(), {
        headers: { 'If-None-Match': ifNoneMatch },
      })
      expect(response.status).toBe(304)
      expect(response.headers.get('ETag')).toBe(etag)
      expect(response.headers.get('Cloudflare-CDN-Cache-Control')).toMatch(/max-age=60,/)
      expect(await response.text()).toBe('')
    }
    const changed = await fetchPage('/ru', backend.env(), { headers: { 'If-None-Match': '"old"' } })
    expect(changed.status).toBe(200)
    expect(await changed.text()).toContain('<html lang="ru">')
  })

  it('sends a hit to a browser that accepts gzip as the bytes compressed when it was stored', async () => {
    backend = fakeBackend()
    const html = await (await fetchPage('/en/about', backend.env())).text()
    const ctx = createExecutionContext()
    const request = new Request('http://localhost/en/about', {
      headers: { 'Accept-Encoding': 'gzip, deflate, br, zstd' },
    })
    const { default: worker } = await import('../../src/index')
    const hit = await worker.fetch(request, backend.env(), ctx)
    await waitOnExecutionContext(ctx)
    expect(hit.headers.get('X-Page-Cache')).toBe('hit')
    expect(hit.headers.get('Content-Encoding')).toBe('gzip')
    expect(hit.headers.get('Vary')).toMatch(/\bAccept-Encoding\b/)
    expect(hit.headers.get('ETag')).toMatch(/^W\/"[\w-]+"$/)
    const compressed = await hit.arrayBuffer()
    expect(compressed.byteLength).toBeLessThan(new TextEncoder().encode(html).byteLength / 3)
    const inflated = new Response(
      new Response(compressed).body!.pipeThrough(new DecompressionStream('gzip'))
    )
    expect(await inflated.text()).toBe(html)

    // Its weak ETag still revalidates.
    const revalidated = await fetchPage('/en/about', backend.env(), {
      headers: { 'If-None-Match': hit.headers.get('ETag')! },
    })
    expect(revalidated.status).toBe(304)
  })

  it.each([null, 'identity', 'gzip;q=0', 'br', '*;q=0', 'gzip;q=0, *'])(
    'sends a hit uncompressed for Accept-Encoding: %s',
    async (acceptEncoding) => {
      backend = fakeBackend()
      const html = await (await fetchPage('/ru/about', backend.env())).text()
      const hit = await fetchPage('/ru/about', backend.env(), {
        headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {},
      })
      expect(hit.headers.get('X-Page-Cache')).toBe('hit')
      expect(hit.headers.has('Content-Encoding')).toBe(false)
      expect(await hit.text()).toBe(html)
    }
  )

  it('reads Accept-Encoding as RFC 9110 says: gzip or the wildcard, weight above 0', () => {
    expect(acceptsGzip('gzip')).toBe(true)
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8, *;q=0.1')).toBe(true)
    expect(acceptsGzip('*')).toBe(true)
    expect(acceptsGzip('GZIP; Q=0.5')).toBe(true)
    expect(acceptsGzip('gzip;q=0.0')).toBe(false)
    expect(acceptsGzip('gzip;q=0, *;q=1')).toBe(false)
    expect(acceptsGzip('deflate, br')).toBe(false)
    expect(acceptsGzip('')).toBe(false)
  })

  it('keeps each address apart: language, page and query', async () => {
    backend = fakeBackend()
    for (const path of ['/en', '/ru', '/', '/en/contact-us', '/en/contact-us?sent=1']) {
      const response = await fetchPage(path, backend.env())
      expect(response.headers.get('X-Page-Cache'), path).toBe('miss')
    }
    expect(
      (await fetchPage('/en/contact-us?sent=1', backend.env())).headers.get('X-Page-Cache')
    ).toBe('hit')
  })

  it('serves campaign and click ids (utm_*, fbclid, anything no page reads) from the page without them', async () => {
    backend = fakeBackend()
    const page = await fetchPage('/ru/about', backend.env())
    expect(page.headers.get('X-Page-Cache')).toBe('miss')
    const html = await page.text()
    const calls = backend.calls.length
    for (const query of [
      '?fbclid=IwAR0abc',
      '?utm_source=facebook&utm_medium=social',
      `?${crypto.randomUUID()}=1`,
      '?',
    ]) {
      const visit = await fetchPage(`/ru/about${query}`, backend.env())
      expect(visit.headers.get('X-Page-Cache'), query).toBe('hit')
      expect(await visit.text(), query).toBe(html)
    }
    expect(backend.calls).toHaveLength(calls)
    // The sent notice still needs its own copy, whatever comes with it.
    const sent = await fetchPage('/en/contact-us?utm_campaign=spring&sent=1', backend.env())
    expect(sent.headers.get('X-Page-Cache')).toBe('miss')
    expect(
      (await fetchPage('/en/contact-us?sent=1&fbclid=x', backend.env())).headers.get('X-Page-Cache')
    ).toBe('hit')
    expect(
      (await fetchPage('/en/contact-us?sent=0', backend.env())).headers.get('X-Page-Cache')
    ).toBe('miss')
  })

  it('starts empty for a new deployment', async () => {
    backend = fakeBackend()
    const version = (id: string) =>
      backend!.env({ CF_VERSION_METADATA: { id, tag: '', timestamp: '' } })
    await fetchPage('/en', version('one'))
    expect((await fetchPage('/en', version('one'))).headers.get('X-Page-Cache')).toBe('hit')
    expect((await fetchPage('/en', version('two'))).headers.get('X-Page-Cache')).toBe('miss')
  })

  it('does not store error pages: a 503 while the backend is down is followed by the page once it is up', async () => {
    backend = fakeBackend({ 'navbar-data': json({ message: 'down' }, 500) })
    const down = await fetchPage('/en/enterprises', backend.env())
    expect(down.status).toBe(503)
    expect(down.headers.get('Cache-Control')).toBe('no-store')
    expect(down.headers.has('X-Page-Cache')).toBe(false)
    const origin = backend.origin
    backend.restore()
    backend = fakeBackend({}, origin)
    const up = await fetchPage('/en/enterprises', backend.env())
    expect(up.status).toBe(200)
    expect(up.headers.get('X-Page-Cache')).toBe('miss')
  })

  it('does not store 404s or redirects', async () => {
    backend = fakeBackend()
    for (const path of ['/en/nope', '/en/nope', '/hy/about', '/en/services']) {
      const response = await fetchPage(path, backend.env(), { redirect: 'manual' })
      expect(response.status, path).not.toBe(200)
      expect(response.headers.has('X-Page-Cache'), path).toBe(false)
    }
  })

  it('serves a stored page no longer once a payload it was rendered from changed: the next visit renders it', async () => {
    backend = fakeBackend()
    const bindings = backend.env()
    await fetchPage('/en/about', bindings)
    const stored = await fetchPage('/en/about', bindings)
    expect(stored.headers.get('X-Page-Cache')).toBe('hit')
    const key = `payload:v2:${backend.origin}:erebuni:get-about-page`
    const entry = await env.CONTENT_CACHE.get<{
      storedAt: number
      hash: string
      payload: { firstBanner: { titleBanner: string } }
    }>(key, 'json')
    entry!.payload.firstBanner.titleBanner = 'About us, edited'
    await env.CONTENT_CACHE.put(key, JSON.stringify({ ...entry, hash: 'edited' }))
    await new Promise((resolve) => setTimeout(resolve, 1_100))

    const changed = await fetchPage('/en/about', bindings)
    expect(changed.headers.get('X-Page-Cache')).toBe('miss')
    expect(changed.headers.get('ETag')).not.toBe(stored.headers.get('ETag'))
    expect(await changed.text()).toContain('About us, edited')
  })

  it('tags every page with its address and the payloads it was rendered from, on a miss and on a hit', async () => {
    backend = fakeBackend()
    const bindings = backend.env()
    const expected = {
      // The home page's enterprise cards link to their projects' pages: it reads the enterprises payload too.
      '/': [
        'page:/',
        'payload:get-home-page',
        'payload:get-enterprises-page',
        'payload:page-meta-data:/',
      ],
      '/en/about': ['page:/en/about', 'payload:get-about-page', 'payload:page-meta-data:/about'],
      '/ru/enterprises': [
        'page:/ru/enterprises',
        'payload:get-enterprises-page',
        'payload:page-meta-data:/enterprises',
      ],
      '/en/contact-us': ['page:/en/contact-us', 'payload:page-meta-data:/contact-us'],
      // A project's page: the enterprises payload and the list's page meta data.
      '/en/enterprises/3-northern-avenue-business-centre': [
        'page:/en/enterprises/3-northern-avenue-business-centre',
        'payload:get-enterprises-page',
        'payload:page-meta-data:/enterprises',
      ],
    }
    for (const [path, tags] of Object.entries(expected)) {
      for (const visit of ['miss', 'hit']) {
        const response = await fetchPage(path, bindings)
        expect(response.headers.get('X-Page-Cache'), path).toBe(visit)
        const header = (response.headers.get('Cache-Tag') ?? '').split(',')
        expect(header[0], path).toBe(tags[0])
        expect(header.sort(), path).toEqual(
          [...tags, 'payload:contact-us', 'payload:navbar-data'].sort()
        )
      }
    }
  })

  it.each(PAGE_ADDRESSES)(
    'gives %s an ETag, a Cache-Tag and a 304 to its ETag, rendered or stored',
    async (path) => {
      backend = fakeBackend()
      const bindings = backend.env()
      const rendered = await fetchPage(path, bindings)
      const etag = rendered.headers.get('ETag')!
      expect(etag).toMatch(/^W\/"[\w-]+"$/)
      expect(rendered.headers.get('Cache-Tag')).toMatch(
        new RegExp(`^page:${path.replace(/\//g, '\\/')},payload:`)
      )
      const stored = await fetchPage(path, bindings, { headers: { 'If-None-Match': etag } })
      expect([stored.status, stored.headers.get('X-Page-Cache')]).toEqual([304, 'hit'])
      const again = await fetchPage(path, backend.env({ PAGE_CACHE_TTL: '0' }), {
        headers: { 'If-None-Match': etag },
      })
      expect(again.status).toBe(304)
    }
  )

  it('answers a matching If-None-Match with 304 even on a render, without a body', async () => {
    backend = fakeBackend()
    const bindings = backend.env({ PAGE_CACHE_TTL: '0' })
    const first = await fetchPage('/ru/about', bindings)
    const etag = first.headers.get('ETag')!
    expect(etag).toMatch(/^W\/"[\w-]+"$/)
    const again = await fetchPage('/ru/about', bindings, { headers: { 'If-None-Match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(again.headers.get('ETag')).toBe(etag)
    expect(again.headers.get('Cache-Tag')).toBe(first.headers.get('Cache-Tag'))
  })

  it('never looks up robots.txt, the sitemap or unknown addresses, and still caches every page', async () => {
    backend = fakeBackend()
    const bindings = backend.env()
    const lookups: string[] = []
    const match = caches.default.match.bind(caches.default)
    vi.spyOn(caches.default, 'match').mockImplementation((request, options) => {
      lookups.push(request instanceof Request ? request.url : String(request))
      return match(request, options)
    })
    for (const path of [
      '/robots.txt',
      '/sitemap.xml',
      '/wp-login.php',
      '/en/nope',
      '/ru/about/extra',
    ]) {
      await fetchPage(path, bindings)
    }
    expect(lookups).toEqual([])
    const pages = ['/', '/about', '/en/enterprises', '/ru/contact-us']
    for (const path of pages) {
      newIsolate()
      await fetchPage(path, bindings)
    }
    expect(lookups).toEqual(
      pages.map((path) => pageCacheKey(new URL(path, 'http://localhost').href, bindings))
    )
  })

  it('is off with PAGE_CACHE_TTL=0, and the page still has its ETag and Cache-Tag', async () => {
    backend = fakeBackend()
    await fetchPage('/en', backend.env({ PAGE_CACHE_TTL: '0' }))
    const response = await fetchPage('/en', backend.env({ PAGE_CACHE_TTL: '0' }))
    expect(response.headers.has('X-Page-Cache')).toBe(false)
    expect(response.headers.has('Cache-Control')).toBe(false)
    expect(response.headers.get('ETag')).toMatch(/^W\/"[\w-]+"$/)
    expect(response.headers.get('Cache-Tag')).toMatch(/^page:\/en,/)
  })
})

describe('pageCache() with an injected clock', () => {
  let clock = 1_700_000_000_000
  let renders = 0
  let release: () => void = () => undefined
  let site = 0
  let bindings: Bindings
  const payloadKey = () => `test:page-cache:${site}`

  /** Stores the one payload every page of this app is rendered from, as the scheduled refresh would. */
  async function setPayload(hash: string, storedAt = clock) {
    await env.CONTENT_CACHE.put(payloadKey(), JSON.stringify({ storedAt, hash, payload: {} }))
    // As every writer of an entry does (src/freshness/payload-store.ts).
    await writePayloadHashes(
      env.CONTENT_CACHE,
      payloadHashesKey(bindings),
      new Map([[payloadKey(), hash]]),
      () => clock
    )
  }

  /** This describe's app, on the page cache of one isolate of the site's modules. */
  function appOn(cacheOf: typeof pageCache) {
    const app = new Hono<AppEnv>()
    app.use('*', cacheOf({ now: () => clock }))
    // What the content client records for a page rendered from the payload.
    app.use('*', async (c, next) => {
      const entry = await c.env.CONTENT_CACHE.get<{ storedAt: number; hash: string }>(
        payloadKey(),
        'json'
      )
      if (entry)
        payloadsReadBy(c).set('payload:test', {
          key: payloadKey(),
          hash: entry.hash,
          storedAt: entry.storedAt,
        })
      await next()
    })
    app.get('/page', (c) => c.html(`<!DOCTYPE html><html><body>render ${++renders}</body></html>`))
    // Rendered while its image placeholders were still being computed (src/images/page-placeholders.ts).
    app.get('/provisional', (c) => {
      c.set('provisional', true)
      return c.html(`<!DOCTYPE html><html><body>render ${++renders}</body></html>`)
    })
    app.get('/cookie', (c) => {
      c.header('Set-Cookie', 'a=b')
      return c.html('<!DOCTYPE html><html></html>')
    })
    app.get('/private', (c) =>
      c.html('<!DOCTYPE html><html></html>', 200, { 'Cache-Control': 'private' })
    )
    app.get('/broken', () => {
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('<!DOCTYPE html><html><body>half'))
          controller.error(new Error('render failed'))
        },
      })
      return new Response(body, { headers: { 'Content-Type': 'text/html; charset=UTF-8' } })
    })
    app.get('/slow', () => {
      const held = new Promise<void>((resolve) => (release = resolve))
      const body = new ReadableStream({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode('<!DOCTYPE html><html><body>first'))
          await held
          controller.enqueue(new TextEncoder().encode(' rest</body></html>'))
          controller.close()
        },
      })
      return new Response(body, { headers: { 'Content-Type': 'text/html; charset=UTF-8' } })
    })
    return app
  }
  let app = appOn(pageCache)

  /** As in another isolate: nothing in memory of earlier requests (recent pages, the heartbeat). */
  async function newAppIsolate() {
    newIsolate()
    app = appOn((await import('../../src/freshness')).pageCache)
  }

  afterEach(async () => {
    clock += 10_000_000
    await env.CONTENT_CACHE.delete(HEARTBEAT_KEY)
  })

  async function visit(path: string): Promise<{ status: string | null; body: string }> {
    const ctx = createExecutionContext()
    const response = await app.fetch(new Request(`http://site-${site}.test${path}`), bindings, ctx)
    const body = await response.text()
    await waitOnExecutionContext(ctx)
    return { status: response.headers.get('X-Page-Cache'), body }
  }

  async function freshSite({ cronRunning }: { cronRunning: boolean }) {
    site += 1
    renders = 0
    bindings = { ...(env as unknown as Bindings), PAGE_CACHE_TTL: '60', CONTENT_TTL: '300' }
    await newAppIsolate()
    if (cronRunning) await env.CONTENT_CACHE.put(HEARTBEAT_KEY, String(clock + 60 * 60_000))
    await setPayload('v1')
  }

  it('serves a stored page, however old, while its payload is unchanged, and renders it at once when it changed', async () => {
    await freshSite({ cronRunning: true })
    expect(await visit('/page')).toEqual({
      status: 'miss',
      body: expect.stringContaining('render 1'),
    })
    clock += 50 * 60_000
    expect(await visit('/page')).toEqual({
      status: 'hit',
      body: expect.stringContaining('render 1'),
    })
    await setPayload('v2')
    clock += 1_000
    expect(await visit('/page')).toEqual({
      status: 'miss',
      body: expect.stringContaining('render 2'),
    })
    expect(await visit('/page')).toEqual({
      status: 'hit',
      body: expect.stringContaining('render 2'),
    })
  })

  it('renders again once its payload aged past CONTENT_TTL where no scheduled refresh runs, so the render refreshes it', async () => {
    await freshSite({ cronRunning: false })
    expect((await visit('/page')).status).toBe('miss')
    clock += 299_000
    expect(await visit('/page')).toEqual({
      status: 'hit',
      body: expect.stringContaining('render 1'),
    })
    clock += 2_000
    expect(await visit('/page')).toEqual({
      status: 'miss',
      body: expect.stringContaining('render 2'),
    })
    // The render's refresh stored the payload again (same content): the page is served again.
    await setPayload('v1', clock)
    clock += 1_000
    expect(await visit('/page')).toEqual({
      status: 'hit',
      body: expect.stringContaining('render 2'),
    })
  })

  it('keeps a page rendered before its image placeholders were ready for PROVISIONAL_SECONDS only, under an ETag of its own', async () => {
    await freshSite({ cronRunning: true })
    const ctx = createExecutionContext()
    const first = await app.fetch(
      new Request(`http://site-${site}.test/provisional`),
      bindings,
      ctx
    )
    await first.text()
    await waitOnExecutionContext(ctx)
    expect(first.headers.get('Cache-Control')).toBe('public, max-age=0, must-revalidate')
    expect(first.headers.get('Cloudflare-CDN-Cache-Control')).toBe(
      `public, max-age=${PROVISIONAL_SECONDS}`
    )
    expect(first.headers.get('ETag')).toMatch(/\.provisional"$/)
    clock += (PROVISIONAL_SECONDS - 1) * 1000
    expect(await visit('/provisional')).toEqual({
      status: 'hit',
      body: expect.stringContaining('render 1'),
    })
    clock += 2_000
    expect(await visit('/provisional')).toEqual({
      status: 'miss',
      body: expect.stringContaining('render 2'),
    })
    // As in another isolate: the Cache API's copy has expired too.
    await newAppIsolate()
    clock += (PROVISIONAL_SECONDS + 1) * 1000
    expect(await visit('/provisional')).toEqual({
      status: 'miss',
      body: expect.stringContaining('render 3'),
    })
  })

  it('sends the first bytes before the page is complete, and stores it once it is', async () => {
    await freshSite({ cronRunning: true })
    const ctx = createExecutionContext()
    const response = await app.fetch(new Request(`http://site-${site}.test/slow`), bindings, ctx)
    const reader = response.body!.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toContain('first')
    release()
    while (!(await reader.read()).done);
    await waitOnExecutionContext(ctx)
    expect((await visit('/slow')).status).toBe('hit')
  })

  it('does not store a page whose render broke off, sets a cookie or is private', async () => {
    await freshSite({ cronRunning: true })
    for (const path of ['/broken', '/cookie', '/private']) {
      const ctx = createExecutionContext()
      const response = await app.fetch(
        new Request(`http://site-${site}.test${path}`),
        bindings,
        ctx
      )
      await response.text().catch(() => '')
      await waitOnExecutionContext(ctx)
      expect(
        await caches.default.match(pageCacheKey(`http://site-${site}.test${path}`, bindings)),
        path
      ).toBeUndefined()
    }
  })
})
