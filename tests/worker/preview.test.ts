/**
 * Preview pages (src/preview/): a signed link opens a session, whose pages under /_preview show
 * what the backend holds at that moment for the editor's token, while visitors keep the published
 * page from the cache; preview answers are kept by no cache, leave nothing in any, and lead to
 * other previews.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Bindings } from '../../src/env'
import { switchLanguagePath } from '../../src/shared/languages'
import { fakeBackend } from '../support/worker/fake-backend'
import { EDITOR_TOKEN, enterPreview, previewLink, PREVIEW_SECRET } from '../support/worker/preview'
import { fetchPage, newIsolate } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

const PUBLISHED = 'Published about title'
const DRAFT = 'Draft about title'

/** A backend whose about page has a draft that only the editor's token reads. */
function backendWithDraft() {
  return fakeBackend({
    'get-about-page': (request) =>
      Response.json({
        payload: {
          firstBanner: {
            titleBanner: request.headers.get('Authorization') === EDITOR_TOKEN ? DRAFT : PUBLISHED,
          },
        },
      }),
  })
}

function previewBindings(overrides: Partial<Bindings> = {}): Bindings {
  return backend!.env({ PREVIEW_SECRET, PREVIEW_API_TOKEN: EDITOR_TOKEN, ...overrides })
}

describe('a preview beside visitors', () => {
  it('shows the draft while visitors get the published page from the cache, at the same moment', async () => {
    backend = backendWithDraft()
    const bindings = previewBindings()
    await fetchPage('/en/about', bindings)
    newIsolate()
    const cookie = await enterPreview(await previewLink('/en/about'), bindings)

    const [visitor, preview] = await Promise.all([
      fetchPage('/en/about', bindings),
      fetchPage('/_preview/en/about', bindings, { headers: { Cookie: cookie } }),
    ])

    expect(visitor.headers.get('X-Page-Cache')).toBe('hit')
    const visitorHtml = await visitor.text()
    expect(visitorHtml).toContain(PUBLISHED)
    expect(visitorHtml).not.toContain(DRAFT)
    expect(preview.status).toBe(200)
    const previewHtml = await preview.text()
    expect(previewHtml).toContain(DRAFT)
    expect(previewHtml).not.toContain(PUBLISHED)
  })

  it('sends the editor token on preview calls only, and reads every payload from the backend', async () => {
    backend = backendWithDraft()
    const bindings = previewBindings({ API_TOKEN: 'public-token' })
    await fetchPage('/en/about', bindings)
    const visitorCalls = backend.calls.length
    expect(
      backend.calls.every((call) => call.headers.get('Authorization') === 'public-token')
    ).toBe(true)
    const cookie = await enterPreview(await previewLink('/en/about'), bindings)

    await fetchPage('/_preview/en/about', bindings, { headers: { Cookie: cookie } })
    await fetchPage('/_preview/en/about', bindings, { headers: { Cookie: cookie } })

    const previewCalls = backend.calls.slice(visitorCalls)
    // The layout's three payloads and the page's, from the backend on each of the two views.
    expect(previewCalls.map((call) => call.url.pathname.split('/').pop()).sort()).toEqual(
      [
        ...Array(2).fill('contact-us'),
        ...Array(2).fill('get-about-page'),
        ...Array(2).fill('navbar-data'),
        ...Array(2).fill('page-meta-data'),
      ].sort()
    )
    expect(previewCalls.every((call) => call.headers.get('Authorization') === EDITOR_TOKEN)).toBe(
      true
    )
  })

  it('leaves nothing in KV, the page cache or the Cache API', async () => {
    backend = backendWithDraft()
    const bindings = previewBindings()
    const cookie = await enterPreview(await previewLink('/ru/about'), bindings)
    const keysBefore = (await env.CONTENT_CACHE.list()).keys.map((key) => key.name)

    const preview = await fetchPage('/_preview/ru/about', bindings, { headers: { Cookie: cookie } })
    expect(await preview.text()).toContain(DRAFT)

    expect((await env.CONTENT_CACHE.list()).keys.map((key) => key.name)).toEqual(keysBefore)
    expect(await caches.default.match('http://localhost/_preview/ru/about')).toBeUndefined()
    newIsolate()
    const visitor = await fetchPage('/ru/about', bindings)
    expect(visitor.headers.get('X-Page-Cache')).toBe('miss')
    expect(await visitor.text()).toContain(PUBLISHED)
  })
})

describe('a preview of the reference service\u2019s drafts', () => {
  it('shows an editor\u2019s draft in preview only, and the published page to visitors', async () => {
    const bindings = {
      ...(env as unknown as Bindings),
      PREVIEW_SECRET,
      PREVIEW_API_TOKEN: EDITOR_TOKEN,
    }
    const before = await (await fetchPage('/en/about', bindings)).text()
    const draft = await env.CONTENT.fetch(
      new Request('https://content.internal/api/erebuni/drafts/get-about-page', {
        method: 'PUT',
        headers: { Authorization: `Bearer ${EDITOR_TOKEN}` },
        body: JSON.stringify({ firstBanner: { titleBanner: 'Drafted in the reference service' } }),
      })
    )
    expect(draft.status).toBe(200)
    const cookie = await enterPreview(await previewLink('/en/about'), bindings)

    const [visitor, preview] = await Promise.all([
      fetchPage('/en/about', bindings),
      fetchPage('/_preview/en/about', bindings, { headers: { Cookie: cookie } }),
    ])

    expect(await preview.text()).toContain('Drafted in the reference service')
    expect(visitor.headers.get('X-Page-Cache')).toBe('hit')
    expect(await visitor.text()).toBe(before)
  })
})

describe('preview answers', () => {
  it('say private, no-store and noindex, with no speculation rules and no cache headers', async () => {
    backend = fakeBackend()
    const bindings = previewBindings()
    const cookie = await enterPreview(await previewLink('/en/about'), bindings)

    const response = await fetchPage('/_preview/en/about', bindings, {
      headers: { Cookie: cookie },
    })

    expect(response.status).toBe(200)
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
    expect(response.headers.get('X-Robots-Tag')).toBe('noindex')
    for (const header of ['Speculation-Rules', 'Cloudflare-CDN-Cache-Control', 'ETag', 'Cache-Tag'])
      expect(response.headers.has(header), header).toBe(false)
    const html = await response.text()
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"')
    expect(html).not.toMatch(/speculationrules/i)
  })

  it('lead to other previews: navbar, language links and the dropdown island props', async () => {
    backend = fakeBackend()
    const bindings = previewBindings()
    const cookie = await enterPreview(await previewLink('/en/about'), bindings)

    const html = await (
      await fetchPage('/_preview/en/about', bindings, { headers: { Cookie: cookie } })
    ).text()

    expect(html).toContain('href="/_preview/en/contact-us"')
    expect(html).toContain('href="/_preview/ru/about"')
    expect(html).toContain('"href":"/_preview/ru/about"')
    expect(html).not.toMatch(/<a [^>]*href="\/(en|ru)?\/?(about|contact-us|enterprises)?"/)
  })

  it('render the Armenian home at /_preview/ and send other spellings to the canonical one', async () => {
    backend = fakeBackend()
    const bindings = previewBindings()
    const cookie = await enterPreview(await previewLink('/'), bindings)

    const home = await fetchPage('/_preview/', bindings, { headers: { Cookie: cookie } })
    expect(home.status).toBe(200)
    expect(await home.text()).toContain('<html lang="hy"')
    const spelled = await fetchPage('/_preview/hy/about', bindings, {
      headers: { Cookie: cookie },
      redirect: 'manual',
    })
    expect(spelled.status).toBe(302)
    expect(spelled.headers.get('Location')).toBe('/_preview/about')
  })

  it('answer HEAD as GET, and render nothing for another method', async () => {
    backend = fakeBackend()
    const bindings = previewBindings()
    const cookie = await enterPreview(await previewLink('/en/contact-us'), bindings)

    const head = await fetchPage('/_preview/en/contact-us', bindings, {
      method: 'HEAD',
      headers: { Cookie: cookie },
    })
    expect(head.status).toBe(200)
    expect(head.headers.get('Cache-Control')).toBe('private, no-store')
    const post = await fetchPage('/_preview/en/contact-us', bindings, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=A&email=a%40b.example&comments=hello',
    })
    expect(post.status).toBe(404)
    expect(post.headers.get('Cache-Control')).toBe('private, no-store')
  })

  it('answer an unknown page with a 404 kept by no cache', async () => {
    backend = fakeBackend()
    const bindings = previewBindings()
    const cookie = await enterPreview(await previewLink('/'), bindings)

    const response = await fetchPage('/_preview/en/no-such-page', bindings, {
      headers: { Cookie: cookie },
    })
    expect(response.status).toBe(404)
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
  })

  it('start with the preview bar: its notice in the page language, the other languages, report and exit', async () => {
    backend = fakeBackend()
    const bindings = previewBindings()
    const cookie = await enterPreview(await previewLink('/ru/contact-us'), bindings)

    const html = await (
      await fetchPage('/_preview/ru/contact-us', bindings, { headers: { Cookie: cookie } })
    ).text()

    const bar = /<aside class="preview-bar" aria-label="Предпросмотр">.*?<\/aside>/s.exec(html)?.[0]
    expect(bar).toBeDefined()
    expect(bar).toContain('Предпросмотр: посетители этого пока не видят')
    expect(bar).toContain('href="/_preview/contact-us" hrefLang="hy"')
    expect(bar).toContain('href="/_preview/en/contact-us" hrefLang="en"')
    expect(bar).toContain('href="/_preview/report"')
    expect(bar).toContain('href="/_preview/exit?path=%2Fru%2Fcontact-us"')
    expect(html.indexOf('class="preview-bar"')).toBeLessThan(html.indexOf('<header'))
    expect(html).toContain('.preview-bar{')
  })
})

describe('visitor pages', () => {
  it('carry neither the preview bar nor its stylesheet', async () => {
    backend = fakeBackend()
    const html = await (await fetchPage('/ru/contact-us', previewBindings())).text()
    expect(html).not.toContain('preview-bar')
  })
})

describe('the language dropdown in preview', () => {
  it('switches a preview address to the same page\u2019s preview in the other language', () => {
    expect(switchLanguagePath('/_preview/ru/about?x=1#team', 'en')).toBe(
      '/_preview/en/about?x=1#team'
    )
    expect(switchLanguagePath('/_preview/en', 'hy')).toBe('/_preview/')
    expect(switchLanguagePath('/_preview/', 'ru')).toBe('/_preview/ru')
    expect(switchLanguagePath('/ru/about', 'en')).toBe('/en/about')
  })
})
