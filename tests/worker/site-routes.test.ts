/**
 * Routing, head tags, caching and failure handling of the site worker, driven over HTTP against a
 * fake backend (see support/fake-backend.ts) so every misbehaviour can be staged.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeBackend, json, text } from '../support/worker/fake-backend'
import { fetchPage, newIsolate } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

const PAGES = ['/', '/about', '/enterprises', '/contact-us']
const PREFIXES = [
  ['', 'hy'],
  ['/en', 'en'],
  ['/ru', 'ru'],
] as const

describe('page routes', () => {
  for (const [prefix, lng] of PREFIXES) {
    for (const page of PAGES) {
      const path = page === '/' ? prefix || '/' : `${prefix}${page}`
      it(`serves ${path} in ${lng}`, async () => {
        backend = fakeBackend()
        const response = await fetchPage(path, backend.env())
        expect(response.status).toBe(200)
        expect(response.headers.get('Content-Type')).toMatch(/text\/html/)
        const html = await response.text()
        expect(html).toMatch(/^<!DOCTYPE html>/i)
        expect(html).toContain(`<html lang="${lng}">`)
        expect(html.match(/<h1[\s>]/g)).toHaveLength(1)
      })
    }
  }

  it('asks for page meta with the language prefix stripped', async () => {
    backend = fakeBackend()
    await fetchPage('/ru/about', backend.env())
    expect(backend.callsTo('page-meta-data')[0]?.url.searchParams.get('page')).toBe('/about')
  })
})

describe('redirects', () => {
  it.each([
    ['/hy', '/'],
    ['/hy/about', '/about'],
    ['/fr', '/'],
    ['/de/about', '/'],
    ['/about/', '/about'],
    ['/en/contact-us/?ref=x', '/en/contact-us?ref=x'],
    ['/services', '/#services'],
    ['/ru/services', '/ru#services'],
    ['/enterprise-detail', '/enterprises'],
    ['/en/enterprise-detail', '/en/enterprises'],
  ])('%s redirects to %s', async (from, to) => {
    backend = fakeBackend()
    const response = await fetchPage(from, backend.env(), { redirect: 'manual' })
    expect(response.status).toBeGreaterThanOrEqual(301)
    expect(response.status).toBeLessThan(400)
    const location = new URL(response.headers.get('Location')!, 'http://localhost')
    expect(location.pathname + location.search + location.hash).toBe(to)
  })
})

describe('hostile paths', () => {
  it.each([
    ['//evil.example/', '/evil.example'],
    ['//evil.example/x/', '/evil.example/x'],
    ['/\\evil.example/', '/evil.example'],
    ['/hy//evil.example', '/evil.example'],
    ['/hy///evil.example/about', '/evil.example/about'],
    ['/en//about/', '/en/about'],
  ])('%s redirects on this site, to %s, never to another host', async (from, to) => {
    backend = fakeBackend()
    // Absolute, or new URL() would read '//evil.example/' as another host before the worker does.
    const response = await fetchPage(`http://localhost${from}`, backend.env(), {
      redirect: 'manual',
    })
    expect(response.status).toBe(301)
    const location = response.headers.get('Location')!
    expect(location).toBe(to)
    expect(new URL(location, 'http://localhost').host).toBe('localhost')
  })
})

describe('unknown pages', () => {
  it.each([
    ['/en/nope', 'en', 'Page not found'],
    ['/ru/about/team', 'ru', 'Страница не найдена'],
    ['/nope', 'hy', 'Էջը չի գտնվել'],
  ])('%s answers 404 with the error page in %s', async (path, lng, text) => {
    backend = fakeBackend()
    const response = await fetchPage(path, backend.env())
    expect(response.status).toBe(404)
    const html = await response.text()
    expect(html).toContain(`<html lang="${lng}">`)
    expect(html).toContain(text)
    expect(html).toContain('404')
    expect(html).toMatch(/<meta name="robots" content="noindex/)
  })
})

describe('document head', () => {
  it('carries title, description, keywords, image, canonical, alternates, icons, robots, theme and card', async () => {
    backend = fakeBackend({
      'page-meta-data': json({
        payload: {
          title: 'T',
          ru_title: 'Заголовок',
          description: 'D',
          ru_description: 'Описание',
          ru_keywords: 'дом, Ереван',
          image: '/images/og.jpg',
        },
      }),
    })
    const html = await (await fetchPage('/ru/about?utm=1', backend.env())).text()
    expect(html).toContain('<title>Заголовок</title>')
    expect(html).toContain('<meta name="description" content="Описание"/>')
    expect(html).toContain('<meta name="keywords" content="дом, Ереван"/>')
    expect(html).toContain('<meta property="og:image" content="http://localhost/images/og.jpg"/>')
    expect(html).toContain('<link rel="canonical" href="http://localhost/ru/about"/>')
    expect(html).toContain('<link rel="alternate" hrefLang="hy" href="http://localhost/about"/>')
    expect(html).toContain('<link rel="alternate" hrefLang="en" href="http://localhost/en/about"/>')
    expect(html).toContain('<link rel="alternate" hrefLang="ru" href="http://localhost/ru/about"/>')
    expect(html).toContain(
      '<link rel="alternate" hrefLang="x-default" href="http://localhost/about"/>'
    )
    expect(html).toMatch(/<link rel="icon"[^>]*href="\/logo-white.png"/)
    expect(html).toContain(
      'content="index, follow, max-image-preview:large, max-snippet:-1, max-video-preview:-1"'
    )
    expect(html).toContain('<meta name="theme-color" content="#ffffff"/>')
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>')
  })

  it('falls back to the site name when the page has no meta title', async () => {
    backend = fakeBackend({ 'page-meta-data': json({ payload: {} }) })
    const html = await (await fetchPage('/en', backend.env())).text()
    expect(html).toContain('<title>Erebuni Development</title>')
  })

  it('shows the footer with the current year', async () => {
    backend = fakeBackend()
    const html = await (await fetchPage('/en', backend.env())).text()
    expect(html).toContain(String(new Date().getUTCFullYear()))
    expect(html).toContain('Made with')
  })
})

describe('a failing backend with nothing cached', () => {
  it.each([
    ['answers 500', { 'navbar-data': json({ message: 'down' }, 500) }],
    ['is slower than the time-out', { 'get-home-page': 'hang' as const }],
    ['answers malformed JSON', { 'contact-us': text('{"payload": ') }],
    ['answers the wrong shape', { 'page-meta-data': json({ payload: 'nope' }) }],
    [
      'cannot be reached',
      { 'navbar-data': () => Promise.reject(new TypeError('connection refused')) },
    ],
  ])('renders the generic error view with 503 when the backend %s', async (_, answers) => {
    backend = fakeBackend(answers)
    const response = await fetchPage('/en', backend.env())
    expect(response.status).toBe(503)
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    const html = await response.text()
    expect(html).toContain('Something went wrong')
    expect(html).toContain('href="/en"')
    expect(html).not.toMatch(/at\s+\S+\s+\(|ContentError|stack/i)
  })
})

describe('payload cache through the site', () => {
  // The payload cache under the page cache: every visit renders (tests/worker/page-cache.test.ts covers the page cache).
  const noPageCache = { PAGE_CACHE_TTL: '0' }

  it('calls the backend once for repeated loads of a page', async () => {
    backend = fakeBackend()
    await fetchPage('/en/about', backend.env(noPageCache))
    await fetchPage('/en/about', backend.env(noPageCache))
    await fetchPage('/ru/about', backend.env(noPageCache))
    expect(backend.callsTo('get-about-page')).toHaveLength(1)
    expect(backend.callsTo('navbar-data')).toHaveLength(1)
  })

  it('serves a stale copy and, where no scheduled refresh runs, refreshes it in the background', async () => {
    backend = fakeBackend()
    await fetchPage('/en/about', backend.env(noPageCache))
    const key = `payload:v2:${backend.origin}:erebuni:get-about-page`
    await env.CONTENT_CACHE.put(
      key,
      JSON.stringify({
        storedAt: Date.now() - 3_600_000,
        hash: 'old',
        payload: { firstBanner: { titleBanner: 'Old title' } },
      })
    )
    // Read as by an isolate that has not read this key within the last second.
    newIsolate()
    const stale = await (await fetchPage('/en/about', backend.env(noPageCache))).text()
    expect(stale).toContain('Old title')
    expect(backend.callsTo('get-about-page')).toHaveLength(2)
    const fresh = await (await fetchPage('/en/about', backend.env(noPageCache))).text()
    expect(fresh).toContain('About us')
  })

  it('sanitizes again a payload stored by another schema version before rendering it, and keeps its content', async () => {
    backend = fakeBackend()
    await fetchPage('/en/about', backend.env(noPageCache))
    const key = `payload:v2:${backend.origin}:erebuni:get-about-page`
    const current = await env.CONTENT_CACHE.get<{
      storedAt: number
      hash: string
      payload: Record<string, unknown>
    }>(key, 'json')
    await env.CONTENT_CACHE.put(
      key,
      JSON.stringify({
        ...current,
        hash: 'stored-by-an-older-release',
        schema: 'payload-schema-0',
        payload: {
          ...current!.payload,
          description:
            '<p>Older <strong>release</strong><script>alert(1)</script><img src=x onerror=alert(1)></p>',
        },
      })
    )
    newIsolate()
    const html = await (await fetchPage('/en/about', backend.env(noPageCache))).text()
    expect(html).toContain('Older <strong>release</strong>')
    expect(html).not.toContain('alert(1)')
    expect(backend.callsTo('get-about-page')).toHaveLength(1)
  })

  it('serves the stale copy when the backend fails, times out or answers garbage', async () => {
    backend = fakeBackend()
    await fetchPage('/en/enterprises', backend.env(noPageCache))
    const origin = backend.origin
    backend.restore()
    for (const failure of [json({ message: 'down' }, 500), 'hang' as const, text('garbage')]) {
      const endpoints = ['get-enterprises-page', 'navbar-data', 'contact-us', 'page-meta-data']
      backend = fakeBackend(Object.fromEntries(endpoints.map((name) => [name, failure])), origin)
      const response = await fetchPage(
        '/en/enterprises',
        backend.env({ ...noPageCache, CONTENT_TTL: '0' })
      )
      expect(response.status).toBe(200)
      expect(await response.text()).toContain('Enterprises')
      expect(backend.callsTo('get-enterprises-page')).toHaveLength(1)
      backend.restore()
    }
    backend = undefined
  })
})

describe('unexpected errors', () => {
  it("renders 'Unexpected Application Error!' with status 500 and no stack trace", async () => {
    backend = fakeBackend()
    vi.spyOn(Date.prototype, 'getUTCFullYear').mockImplementation(() => {
      throw new Error('secret internal detail')
    })
    const response = await fetchPage('/en', backend.env())
    expect(response.status).toBe(500)
    const html = await response.text()
    expect(html).toContain('Unexpected Application Error!')
    expect(html).not.toContain('secret internal detail')
  })
})
