/**
 * Error reporting (src/observability): uncaught errors and failed backend calls reach Sentry's
 * ingest endpoint as envelopes whose events carry the release, route and language tags, and
 * nothing is sent without SENTRY_DSN. The ingest endpoint is faked at `fetch`.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AppEnv, Bindings } from '../../src/env'
import { language } from '../../src/middleware/language'
import { onError } from '../../src/routes/errors'
import { renderer } from '../../src/views/renderer'
import { postForm, postJson, VALID } from '../support/worker/contact'
import { fakeBackend, json } from '../support/worker/fake-backend'
import { fakeSentry, SENTRY_DSN, type SentryEvent } from '../support/worker/fake-sentry'
import { fetchPage } from '../support/worker/worker'

const DSN = SENTRY_DSN

let sentry: ReturnType<typeof fakeSentry> | undefined
let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  sentry?.restore()
  vi.restoreAllMocks()
})

const messageOf = (event: SentryEvent | undefined) => event?.exception?.values?.at(-1)?.value ?? ''

describe('failed backend calls', () => {
  it('reports each failed call with release, route and language tags', async () => {
    sentry = fakeSentry()
    backend = fakeBackend({ 'navbar-data': json({ message: 'database is down' }, 500) })
    const response = await fetchPage(
      '/ru/about',
      backend.env({ SENTRY_DSN: DSN, RELEASE: 'abc1234' })
    )
    expect(response.status).toBe(503)
    expect(sentry.urls[0]?.pathname).toBe('/api/42/envelope/')
    expect(sentry.urls[0]?.searchParams.get('sentry_key')).toBe('publickey123')
    expect(sentry.events).toHaveLength(1)
    const [event] = sentry.events
    expect(event?.release).toBe('abc1234')
    expect(event?.tags).toMatchObject({
      release: 'abc1234',
      route: '/about',
      lng: 'ru',
      kind: 'backend',
    })
    expect(event?.tags?.backend_key).toContain('navbar-data')
    expect(messageOf(event)).toContain('navbar-data: HTTP 500')
    expect(event?.request?.url).toBe('http://localhost/ru/about')
  })

  it('reports a time-out on an Armenian page, with the Workers version id as release when RELEASE is unset', async () => {
    sentry = fakeSentry()
    backend = fakeBackend({ 'get-enterprises-page': 'hang' })
    const version = { id: '6f1c2d3e-version', tag: '', timestamp: '2026-11-21T00:00:00Z' }
    const response = await fetchPage(
      '/enterprises',
      backend.env({ SENTRY_DSN: DSN, CF_VERSION_METADATA: version })
    )
    expect(response.status).toBe(503)
    expect(sentry.events.map((event) => event.tags)).toEqual([
      expect.objectContaining({
        release: '6f1c2d3e-version',
        route: '/enterprises',
        lng: 'hy',
        kind: 'backend',
      }),
    ])
  })

  it('says the release is unversioned without RELEASE or version metadata', async () => {
    sentry = fakeSentry()
    backend = fakeBackend({ 'navbar-data': json({}, 500) })
    await fetchPage('/en', backend.env({ SENTRY_DSN: DSN, CF_VERSION_METADATA: undefined }))
    expect(sentry.events[0]?.release).toBe('unversioned')
  })

  it('sends only allow-listed request headers', async () => {
    sentry = fakeSentry()
    backend = fakeBackend({ 'contact-us': json({}, 502) })
    await fetchPage('/en/contact-us', backend.env({ SENTRY_DSN: DSN }), {
      headers: {
        Cookie: 'session=secret',
        'User-Agent': 'test-agent',
        'CF-Connecting-IP': '203.0.113.7',
      },
    })
    const headers = sentry.events[0]?.request?.headers ?? {}
    expect(JSON.stringify(sentry.events)).not.toContain('secret')
    expect(JSON.stringify(sentry.events)).not.toContain('203.0.113.7')
    expect(Object.keys(headers).map((name) => name.toLowerCase())).toEqual(['user-agent'])
  })

  it('reports a contact message the backend refuses, with its status and message', async () => {
    sentry = fakeSentry()
    backend = fakeBackend({ messages: json({ message: 'mailbox full' }, 422) })
    const response = await postJson(backend.env({ SENTRY_DSN: DSN, RELEASE: 'v44' }), VALID)
    expect(response.status).toBe(502)
    expect(sentry.events).toHaveLength(1)
    const [event] = sentry.events
    expect(event?.tags).toMatchObject({
      release: 'v44',
      route: '/api/contact',
      kind: 'backend',
      backend_key: 'messages',
    })
    expect(messageOf(event)).toBe('messages: HTTP 422')
  })

  it('reports a contact send that timed out, from the Russian plain form, though the outbox queued the message', async () => {
    sentry = fakeSentry()
    backend = fakeBackend({ messages: 'hang' })
    const response = await postForm('/ru/contact-us', backend.env({ SENTRY_DSN: DSN }), VALID)
    expect(response.status).toBe(303)
    expect(sentry.events.map((event) => event.tags)).toEqual([
      expect.objectContaining({
        route: '/contact-us',
        lng: 'ru',
        kind: 'backend',
        backend_key: 'messages',
      }),
    ])
  })

  it('sends nothing when a contact message is delivered', async () => {
    sentry = fakeSentry()
    backend = fakeBackend({ messages: json({ ok: true }) })
    expect((await postJson(backend.env({ SENTRY_DSN: DSN }), VALID)).status).toBe(200)
    expect(sentry.urls).toHaveLength(0)
  })

  it('still answers with the error page when Sentry cannot be reached', async () => {
    sentry = fakeSentry({ down: true })
    backend = fakeBackend({ 'navbar-data': json({}, 500) })
    const response = await fetchPage('/en', backend.env({ SENTRY_DSN: DSN }))
    expect(response.status).toBe(503)
    expect(sentry.urls.length).toBeGreaterThan(0)
  })
})

describe('addresses dropped from a payload', () => {
  it('are reported once, with the call and every dropped field’s path, and the page answers 200', async () => {
    sentry = fakeSentry()
    backend = fakeBackend({
      'page-meta-data': json({ payload: { title: 'Erebuni', image: 'javascript:alert(1)' } }),
      'get-about-page': json({
        payload: {
          firstBanner: { titleBanner: 'About', img: 'http://[' },
          thirdBanner: [{ imgLink: 'https://exa mple.com' }],
        },
      }),
    })
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const response = await fetchPage(
      '/en/about',
      backend.env({ SENTRY_DSN: DSN, PAGE_CACHE_TTL: '0' })
    )
    expect(response.status).toBe(200)
    const messages = sentry.events.map(messageOf).sort()
    expect(messages).toEqual([
      'get-about-page: unsafe or malformed address dropped at firstBanner.img, thirdBanner[0].imgLink',
      expect.stringMatching(
        /^page-meta-data\?path=site&page=%2Fabout: unsafe or malformed address dropped at image$/
      ),
    ])
    expect(sentry.events.every((event) => event.tags?.kind === 'backend')).toBe(true)
  })
})

describe('uncaught errors', () => {
  /** The worker's middleware and error handler around a route that throws. */
  function brokenApp() {
    const app = new Hono<AppEnv>()
    app.use('*', language())
    app.use('*', renderer)
    app.get('/en/about', () => {
      throw new RangeError('something nobody expected')
    })
    app.onError(onError)
    return app
  }

  async function fetchBroken(path: string, bindings: Bindings) {
    const ctx = createExecutionContext()
    const response = await brokenApp().fetch(new Request(`http://localhost${path}`), bindings, ctx)
    await waitOnExecutionContext(ctx)
    return response
  }

  it('reports the error with release, route and language tags and answers 500', async () => {
    sentry = fakeSentry()
    backend = fakeBackend()
    const response = await fetchBroken(
      '/en/about',
      backend.env({ SENTRY_DSN: DSN, RELEASE: 'v42' })
    )
    expect(response.status).toBe(500)
    expect(await response.text()).toContain('Unexpected Application Error!')
    expect(sentry.events).toHaveLength(1)
    const [event] = sentry.events
    expect(event?.tags).toMatchObject({
      release: 'v42',
      route: '/about',
      lng: 'en',
      kind: 'unexpected',
    })
    expect(event?.exception?.values?.at(-1)).toMatchObject({
      type: 'RangeError',
      value: 'something nobody expected',
    })
  })

  it('reports an error thrown while a page renders, once, before any byte is sent', async () => {
    sentry = fakeSentry()
    backend = fakeBackend()
    // The footer reads the year while rendering; pages have no Suspense boundary, so a render
    // error rejects the whole stream before its first byte and reaches the error handler.
    vi.spyOn(Date.prototype, 'getUTCFullYear').mockImplementation(() => {
      throw new RangeError('the footer could not tell the year')
    })
    const response = await fetchPage(
      '/ru/enterprises',
      backend.env({ SENTRY_DSN: DSN, RELEASE: 'v43', PAGE_CACHE_TTL: '0' })
    )
    expect(response.status).toBe(500)
    expect(await response.text()).toContain('Непредвиденная ошибка приложения!')
    expect(sentry.events).toHaveLength(1)
    const [event] = sentry.events
    expect(event?.tags).toMatchObject({
      release: 'v43',
      route: '/enterprises',
      lng: 'ru',
      kind: 'unexpected',
    })
    expect(event?.exception?.values?.at(-1)).toMatchObject({
      type: 'RangeError',
      value: 'the footer could not tell the year',
    })
  })
})

describe('a section whose render throws', () => {
  /** Makes upper-casing 'Ǆ' throw: only the founders' initials do that, for a founder named so. */
  function breakFoundersInitials() {
    const upperCase = String.prototype.toUpperCase
    vi.spyOn(String.prototype, 'toUpperCase').mockImplementation(function (this: string) {
      if (String(this) === 'ǅ') throw new TypeError('the founders section broke on its content')
      return upperCase.call(this)
    })
  }

  it('leaves the rest of the page rendered with 200, and is reported once', async () => {
    sentry = fakeSentry()
    backend = fakeBackend({
      'get-home-page': json({
        payload: {
          banner: [{ title: 'Building Yerevan' }],
          servicesTitle: 'Our services',
          servicesHome: [{ title: 'Design' }],
          foundersHome: [{ id: 1, title: 'ǅamila Petrosyan' }],
        },
      }),
    })
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    breakFoundersInitials()
    const response = await fetchPage(
      '/en',
      backend.env({ SENTRY_DSN: DSN, RELEASE: 'v44', PAGE_CACHE_TTL: '0' })
    )
    const html = await response.text()
    expect(response.status).toBe(200)
    expect(html).toContain('Building Yerevan')
    expect(html).toContain('Design')
    expect(html).toContain('site-footer')
    expect(html).toMatch(/<\/html>$/)
    expect(html).not.toContain('class="founder-list"')
    // Where the section was, React leaves an empty boundary; its <template> holds the digest, and
    // only in development builds the message too.
    expect(html).toMatch(/<!--\$!--><template data-dgst="render-error"/)
    // Nothing for an inline script to reveal later: the content security policy would block it.
    expect(html).not.toMatch(/<script>|hidden id="S:/)
    expect(html.replace(/<template[^>]*><\/template>/g, '')).not.toContain(
      'the founders section broke'
    )
    expect(sentry.events).toHaveLength(1)
    expect(sentry.events[0]?.tags).toMatchObject({
      release: 'v44',
      route: '/',
      lng: 'en',
      kind: 'unexpected',
    })
    expect(messageOf(sentry.events[0])).toBe('the founders section broke on its content')
  })

  it('renders the page in full when nothing throws', async () => {
    sentry = fakeSentry()
    backend = fakeBackend({
      'get-home-page': json({ payload: { foundersHome: [{ id: 1, title: 'ǅamila Petrosyan' }] } }),
    })
    const response = await fetchPage('/en', backend.env({ SENTRY_DSN: DSN, PAGE_CACHE_TTL: '0' }))
    const html = await response.text()
    expect(html).toContain('class="founder-list"')
    expect(html).not.toMatch(/<script>|hidden id="S:/)
    expect(sentry.events).toHaveLength(0)
  })
})

describe('without SENTRY_DSN', () => {
  it('sends nothing, for failed backend calls or uncaught errors', async () => {
    sentry = fakeSentry()
    backend = fakeBackend({ 'navbar-data': json({}, 500) })
    expect((await fetchPage('/ru/about', backend.env())).status).toBe(503)
    expect((await fetchPage('/en', backend.env({ SENTRY_DSN: '' }))).status).toBe(503)
    expect(sentry.urls).toHaveLength(0)
  })

  it('answers pages as usual', async () => {
    sentry = fakeSentry()
    backend = fakeBackend()
    expect((await fetchPage('/en/about', backend.env())).status).toBe(200)
    expect(sentry.urls).toHaveLength(0)
  })
})
