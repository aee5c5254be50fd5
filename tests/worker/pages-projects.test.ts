/**
 * Project pages (src/content/projects.ts, src/views/pages/project-page.tsx): every project
 * of the bundled content at `/enterprises/<id>-<title>` in three languages, with its own head (title,
 * description, a JPEG social card through the image route, canonical, hreflang, breadcrumbs);
 * stale slugs redirect, unknown ones are 404; the cards link to the pages; the sitemap, the page
 * cache and the publish hook's purge include them; malformed items never take a page down.
 */
import { env } from 'cloudflare:workers'
import { waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import seed from '../../content-service/seed/enterprises.json'
import type { Bindings } from '../../src/env'
import worker from '../../src/index'
import { LANGUAGES, localizePath, type Lng } from '../../src/shared/languages'
import { getT } from '../../src/shared/i18n'
import { PROJECT_KEYS } from '../support/page-addresses'
import { fakeBackend, json, samplePayloads, type Answer } from '../support/worker/fake-backend'
import { contextWithWorkersCache } from '../support/worker/freshness'
import { ACCEPT, fetchImage, imageInfo } from '../support/worker/images'
import { imageSource, select, selectOne } from '../support/worker/views'
import { fetchPage } from '../support/worker/worker'
import { signedNow } from '../support/worker/signed-call'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  backend = undefined
  vi.restoreAllMocks()
})

const bindings = env as unknown as Bindings
const TITLE_FIELD: Record<Lng, 'arm_title' | 'title' | 'ru_title'> = {
  hy: 'arm_title',
  en: 'title',
  ru: 'ru_title',
}
const arabkir = seed.enterprises[0]!

async function page(path: string, env: Bindings = bindings) {
  const response = await fetchPage(path, env)
  return { response, html: await response.text() }
}

async function meta(
  html: string,
  selector: string,
  attribute = 'content'
): Promise<string | undefined> {
  return (await selectOne(html, selector))?.attrs[attribute]
}

describe('a project page for every project of the bundled content', () => {
  it('has a slug for each of the five projects: id, then its English title', () => {
    expect(PROJECT_KEYS).toEqual([
      '/enterprises/1-arabkir-residence',
      '/enterprises/2-ararat-view-tower',
      '/enterprises/3-northern-avenue-business-centre',
      '/enterprises/4-davtashen-townhouses',
      '/enterprises/5-erebuni-plaza',
    ])
  })

  it.each(
    LANGUAGES.flatMap((lng) =>
      seed.enterprises.map((item, index) => [lng, index, item.id] as const)
    )
  )(
    'in %s, project %i (id %s): 200, its title as h1, its text, its button and the other four projects',
    async (lng, index) => {
      const item = seed.enterprises[index]!
      const { response, html } = await page(localizePath(PROJECT_KEYS[index]!, lng))
      expect(response.status).toBe(200)
      expect(await selectOne(html, 'html')).toMatchObject({ attrs: { lang: lng } })
      expect((await select(html, 'h1')).map((h1) => h1.text)).toEqual([item[TITLE_FIELD[lng]]])
      const description = (item as unknown as Record<string, string>)[
        lng === 'en' ? 'description' : `${lng === 'hy' ? 'arm' : 'ru'}_description`
      ]!
      expect((await selectOne(html, '.project__text'))?.text).toContain(
        description.replace(/<[^>]*>/g, '').slice(0, 30)
      )
      const others = await select(html, '.project-card__title a')
      expect(others.map((link) => link.attrs.href)).toEqual(
        PROJECT_KEYS.filter((_, other) => other !== index).map((key) => localizePath(key, lng))
      )
    }
  )

  it('shows the photo as the banner through the image route, eager, with the title as alt', async () => {
    const { html } = await page('/en/enterprises/1-arabkir-residence')
    const banner = await selectOne(html, '.page-banner__image')
    expect(imageSource(banner!.attrs.src!)).toBe(arabkir.img)
    expect(banner!.attrs).toMatchObject({
      alt: 'Arabkir Residence',
      fetchpriority: 'high',
      width: '1920',
      height: '1080',
    })
    expect(banner!.attrs.loading).not.toBe('lazy')
  })

  it("keeps the item's button and its icon link, and breadcrumbs back to home and the list", async () => {
    const { html } = await page('/ru/enterprises/1-arabkir-residence')
    const button = await selectOne(html, '.project__actions .button')
    expect(button?.attrs.href).toBe('/ru/contact-us?project=1')
    expect(button?.text).toContain(arabkir.ru_btnName)
    expect((await selectOne(html, '.project__icon'))?.attrs).toMatchObject({
      href: arabkir.iconLink.replace(/ /g, '+'),
      target: '_blank',
    })
    // The icon is the link's only content: its image names the link's purpose (HTML_CodeSniffer H30).
    expect((await selectOne(html, '.project__icon img'))?.attrs.alt).toBe(arabkir.ru_title)
    const crumbs = await select(html, '.breadcrumbs a')
    expect(crumbs.map((link) => link.attrs.href)).toEqual(['/ru', '/ru/enterprises'])
    expect((await selectOne(html, '.breadcrumbs [aria-current="page"]'))?.text).toBe(
      arabkir.ru_title
    )
  })
})

describe("a project page's head", () => {
  it.each(LANGUAGES)(
    'in %s: "<project> · <site name>", the text as plain description, canonical and hreflang of the project',
    async (lng) => {
      const path = localizePath('/enterprises/1-arabkir-residence', lng)
      const { html } = await page(path)
      const siteName = getT(lng)('meta.siteName')
      expect((await selectOne(html, 'title'))?.text).toBe(
        `${arabkir[TITLE_FIELD[lng]]} · ${siteName}`
      )
      const description = await meta(html, 'meta[name="description"]')
      expect(description).not.toMatch(/[<>]/)
      expect(description!.length).toBeLessThanOrEqual(160)
      expect(description).toMatch(
        lng === 'en' ? /^A boutique five-storey residence in Arabkir with 48 apartments/ : /\S/
      )
      expect(await meta(html, 'meta[property="og:title"]')).toBe(
        `${arabkir[TITLE_FIELD[lng]]} · ${siteName}`
      )
      expect(await meta(html, 'meta[property="og:description"]')).toBe(description)
      expect(await meta(html, 'link[rel="canonical"]', 'href')).toBe(`http://localhost${path}`)
      expect(await meta(html, 'meta[property="og:url"]')).toBe(`http://localhost${path}`)
      const alternates = await select(html, 'link[rel="alternate"]')
      expect(alternates.map((link) => [link.attrs.hreflang, link.attrs.href])).toEqual([
        ['hy', 'http://localhost/enterprises/1-arabkir-residence'],
        ['en', 'http://localhost/en/enterprises/1-arabkir-residence'],
        ['ru', 'http://localhost/ru/enterprises/1-arabkir-residence'],
        ['x-default', 'http://localhost/enterprises/1-arabkir-residence'],
      ])
    }
  )

  it('has a BreadcrumbList of home, the enterprises list and the project, beside the organisation', async () => {
    const { html } = await page('/en/enterprises/2-ararat-view-tower')
    const blocks = (await select(html, 'script[type="application/ld+json"]')).map(
      (script) => JSON.parse(script.text) as Record<string, unknown>
    )
    expect(blocks.map((block) => block['@type'])).toEqual(['GeneralContractor', 'BreadcrumbList'])
    expect(blocks[1]!.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Home', item: 'http://localhost/en' },
      {
        '@type': 'ListItem',
        position: 2,
        name: 'Enterprises',
        item: 'http://localhost/en/enterprises',
      },
      {
        '@type': 'ListItem',
        position: 3,
        name: 'Ararat View Tower',
        item: 'http://localhost/en/enterprises/2-ararat-view-tower',
      },
    ])
  })

  it("names the project's photo as og:image and twitter:image, a 1200×630 JPEG for a crawler's Accept: */* and for a browser's", async () => {
    const { html } = await page('/en/enterprises/1-arabkir-residence')
    const og = await meta(html, 'meta[property="og:image"]')
    expect(await meta(html, 'meta[name="twitter:image"]')).toBe(og)
    const url = new URL(og!)
    expect(url.origin).toBe('http://localhost')
    expect(url.pathname).toBe('/_image')
    expect(url.searchParams.get('src')).toBe(arabkir.img)
    expect([url.searchParams.get('w'), url.searchParams.get('h')]).toEqual(['1200', '630'])
    for (const accept of [ACCEPT.none, ACCEPT.avif]) {
      const { response, bytes } = await fetchImage(`${url.pathname}${url.search}`, bindings, accept)
      expect(response.status, accept).toBe(200)
      expect(response.headers.get('Content-Type'), accept).toBe('image/jpeg')
      expect(await imageInfo(bytes), accept).toMatchObject({
        format: 'image/jpeg',
        width: 1200,
        height: 630,
      })
    }
  })

  it('refuses a card address that was not signed, or of another size', async () => {
    const { html } = await page('/enterprises/3-northern-avenue-business-centre')
    const og = new URL((await meta(html, 'meta[property="og:image"]'))!)
    const tampered = og.search.replace(/&s=[^&]+$/, '&s=AAAAAAAAAAAAAAAA')
    expect((await fetchImage(`/_image${tampered}`, bindings, ACCEPT.none)).response.status).toBe(
      403
    )
    const otherSize = og.search.replace('&h=630', '&h=600')
    expect((await fetchImage(`/_image${otherSize}`, bindings, ACCEPT.none)).response.status).toBe(
      400
    )
    // The card's signature is not a ladder address's: dropping the height is another address.
    const noHeight = og.search.replace('&h=630', '')
    expect((await fetchImage(`/_image${noHeight}`, bindings, ACCEPT.none)).response.status).toBe(
      400
    )
  })
})

describe('project addresses', () => {
  it.each([
    ['/enterprises/1', '/enterprises/1-arabkir-residence'],
    ['/en/enterprises/1-arabkir-residnce', '/en/enterprises/1-arabkir-residence'],
    ['/ru/enterprises/2-old-name', '/ru/enterprises/2-ararat-view-tower'],
    ['/enterprises/5-', '/enterprises/5-erebuni-plaza'],
  ])('%s (a stale or bare slug) redirects 301 to %s', async (path, location) => {
    const response = await fetchPage(path, bindings, { redirect: 'manual' })
    expect(response.status).toBe(301)
    expect(response.headers.get('Location')).toBe(location)
  })

  it.each([
    '/enterprises/99-nothing',
    '/en/enterprises/arabkir-residence',
    '/ru/enterprises/0',
    '/enterprises/1-arabkir-residence/more',
    '/en/enterprises/%D0%B0',
  ])('%s is the 404 page', async (path) => {
    const response = await fetchPage(path, bindings, { redirect: 'manual' })
    expect(response.status).toBe(404)
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/)
    expect(await response.text()).toContain('noindex')
  })

  it('keeps a project where it is when an editor fixes its title: the old slug redirects to the new one', async () => {
    const item = {
      id: 7,
      img: '/images/enterprises/arabkir-residence.jpg',
      title: 'Arabkir Residnce',
      ru_title: 'Арабкир',
      arm_title: 'Արաբկիր',
    }
    const answers: Record<string, Answer> = {
      'get-enterprises-page': json({ payload: { enterprises: [item] } }),
    }
    backend = fakeBackend(answers)
    const env = backend.env({ CONTENT_TTL: '0' })
    expect((await fetchPage('/en/enterprises/7-arabkir-residnce', env)).status).toBe(200)
    answers['get-enterprises-page'] = json({
      payload: { enterprises: [{ ...item, title: 'Arabkir Residence' }] },
    })
    // With CONTENT_TTL 0 a visit starts the reload and a later one sees it: wait for it, 10 s at most.
    const deadline = Date.now() + 10_000
    let stale = await fetchPage('/en/enterprises/7-arabkir-residnce', env, { redirect: 'manual' })
    while (stale.status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      stale = await fetchPage('/en/enterprises/7-arabkir-residnce', env, { redirect: 'manual' })
    }
    expect(stale.status).toBe(301)
    expect(stale.headers.get('Location')).toBe('/en/enterprises/7-arabkir-residence')
    expect((await fetchPage('/en/enterprises/7-arabkir-residence', env)).status).toBe(200)
  })
})

describe('cards link to their project', () => {
  it.each(LANGUAGES)(
    'on the enterprises page in %s: title and photo lead to the page, the button keeps its own link',
    async (lng) => {
      const { html } = await page(localizePath('/enterprises', lng))
      const titles = await select(html, '.feature-row__title a')
      expect(titles.map((link) => link.attrs.href)).toEqual(
        PROJECT_KEYS.map((key) => localizePath(key, lng))
      )
      const photos = await select(html, '.feature-row__photo-link')
      expect(
        photos.map((link) => [link.attrs.href, link.attrs.tabindex, link.attrs['aria-hidden']])
      ).toEqual(PROJECT_KEYS.map((key) => [localizePath(key, lng), '-1', 'true']))
      const buttons = await select(html, '.feature-row .button')
      expect(buttons[0]?.attrs.href).toBe(localizePath('/contact-us', lng))
      expect(buttons[4]?.attrs.href).toBe(seed.enterprises[4]!.btnLink.replace(/ /g, '+'))
    }
  )

  it.each(LANGUAGES)("on the home page's carousel in %s", async (lng) => {
    const { html } = await page(localizePath('/', lng))
    const titles = await select(html, '.enterprise-card__title a')
    expect(titles.map((link) => link.attrs.href)).toEqual(
      PROJECT_KEYS.map((key) => localizePath(key, lng))
    )
    const buttons = await select(html, '.enterprise-card__link')
    expect(buttons[0]?.attrs.href).toBe(localizePath('/enterprises', lng))
  })

  it("sends a button without a link of its own to the project's page (the spec's /enterprise-detail), and to the list on home without a page", async () => {
    const items = [
      { id: 1, img: '/images/a.jpg', title: 'Linked', btnName: 'More' },
      { id: 2, img: '/images/b.jpg', title: 'Orphan', btnName: 'More' },
    ]
    backend = fakeBackend({
      'get-enterprises-page': json({ payload: { enterprises: [items[0]] } }),
      'get-home-page': json({
        payload: { ...(samplePayloads['get-home-page'] as object), enterprisesHome: items },
      }),
    })
    const home = (await page('/en', backend.env())).html
    expect((await select(home, '.feature-row .button')).map((button) => button.attrs.href)).toEqual(
      ['/en/enterprises/1-linked', '/en/enterprises']
    )
    expect((await select(home, '.feature-row__title a')).map((link) => link.attrs.href)).toEqual([
      '/en/enterprises/1-linked',
    ])
    const list = (await page('/en/enterprises', backend.env())).html
    expect((await select(list, '.feature-row .button')).map((button) => button.attrs.href)).toEqual(
      ['/en/enterprises/1-linked']
    )
  })
})

describe('project pages in the sitemap, the page cache and the purge', () => {
  it('the sitemap lists every project in every language with its alternates', async () => {
    const xml = await (await fetchPage('/sitemap.xml', bindings)).text()
    for (const key of PROJECT_KEYS) {
      for (const lng of LANGUAGES)
        expect(xml).toContain(`<loc>http://localhost${localizePath(key, lng)}</loc>`)
      expect(xml).toContain(`hreflang="x-default" href="http://localhost${key}"`)
    }
    expect(xml.match(/<url>/g)).toHaveLength(12 + 3 * PROJECT_KEYS.length)
  })

  it('caches a project page, tagged with the enterprises payload, and the publish hook purges it when that payload changes', async () => {
    const answers: Record<string, Answer> = {
      'get-enterprises-page': json({
        payload: {
          enterprises: [
            {
              id: 1,
              img: '/images/a.jpg',
              title: 'Tower',
              ru_title: 'Башня',
              arm_title: 'Աշտարակ',
            },
          ],
        },
      }),
    }
    backend = fakeBackend(answers)
    const env = backend.env({ PUBLISH_SECRET: 'secret' })
    expect((await fetchPage('/en/enterprises/1-tower', env)).headers.get('X-Page-Cache')).toBe(
      'miss'
    )
    const cached = await fetchPage('/en/enterprises/1-tower', env)
    expect(cached.headers.get('X-Page-Cache')).toBe('hit')
    expect(cached.headers.get('Cache-Tag')?.split(',')).toEqual(
      expect.arrayContaining(['page:/en/enterprises/1-tower', 'payload:get-enterprises-page'])
    )

    answers['get-enterprises-page'] = json({
      payload: {
        enterprises: [
          {
            id: 1,
            img: '/images/a.jpg',
            title: 'Tower',
            en_title: 'Tall Tower',
            ru_title: 'Башня',
            arm_title: 'Աշտարակ',
          },
        ],
      },
    })
    const body = JSON.stringify({ payloads: ['get-enterprises-page'] })
    const { ctx, tags } = contextWithWorkersCache()
    const request = new Request('http://localhost/api/publish', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'CF-Connecting-IP': '2001:db8:31::1',
        ...(await signedNow('secret', body)),
      },
      body,
    })
    expect((await worker.fetch(request, env, ctx)).status).toBe(200)
    await waitOnExecutionContext(ctx)
    expect(tags()).toContain('payload:get-enterprises-page')
    const fresh = await fetchPage('/en/enterprises/1-tower', env)
    expect(fresh.headers.get('X-Page-Cache')).toBe('miss')
    expect(await fresh.text()).toContain('Tall Tower')
  })
})

describe('malformed enterprise items', () => {
  const items = [
    { img: '/images/a.jpg', title: 'No id', ru_title: 'Без id', arm_title: 'Առանց' },
    { id: 1, img: '/images/b.jpg', title: 'First', ru_title: 'Первый', arm_title: 'Առաջին' },
    { id: 1, img: '/images/c.jpg', title: 'Duplicate', ru_title: 'Дубль', arm_title: 'Կրկնօրինակ' },
    { id: 2, img: '/images/d.jpg', title: '', description: '<p>Text without a title</p>' },
    { id: 3, img: '', title: 'No image', ru_title: 'Без фото', arm_title: 'Առանց նկարի' },
    { id: 'a b', img: '/images/e.jpg', title: 'Spaced id', ru_title: 'Пробел', arm_title: 'Բացատ' },
  ]

  it('keep their cards without a link, never take a page down, and are reported once per load', async () => {
    backend = fakeBackend({ 'get-enterprises-page': json({ payload: { enterprises: items } }) })
    const warn = vi.spyOn(console, 'warn')
    const env = backend.env()
    const { response, html } = await page('/en/enterprises', env)
    expect(response.status).toBe(200)
    // Every card is there (the one without a title shows its text), two of them linked.
    expect((await select(html, '.feature-row__title')).map((title) => title.text)).toEqual([
      'No id',
      'First',
      'Duplicate',
      'No image',
      'Spaced id',
    ])
    expect(html).toContain('Text without a title')
    expect((await select(html, '.feature-row__title a')).map((link) => link.attrs.href)).toEqual([
      '/en/enterprises/1-first',
      '/en/enterprises/3-no-image',
    ])
    for (const lng of LANGUAGES) {
      for (const path of ['/enterprises/1-first', '/enterprises/3-no-image', '/', '/enterprises']) {
        expect(
          (await fetchPage(localizePath(path, lng), env)).status,
          localizePath(path, lng)
        ).toBe(200)
      }
    }
    const reports = warn.mock.calls
      .map((call) => String(call[0]))
      .filter((line) => line.includes('MalformedItemsError'))
    expect(reports).toEqual([
      'content: get-enterprises-page: MalformedItemsError: get-enterprises-page: enterprises[0]: no id (no page); ' +
        'enterprises[2]: duplicate id "1": only its first item has a page (no page); ' +
        'enterprises[3]: no title in every language (no page); ' +
        'enterprises[4]: no image (its page shows the bundled banner); ' +
        `enterprises[5]: id "a b" cannot be part of an address: letters, digits, '_', '.', '~' only (no page)`,
    ])
  })

  it("a project without an image shows the banner's bundled image, and shares the list's social image", async () => {
    backend = fakeBackend({ 'get-enterprises-page': json({ payload: { enterprises: items } }) })
    const { html } = await page('/en/enterprises/3-no-image', backend.env())
    expect(imageSource((await selectOne(html, '.page-banner__image'))!.attrs.src!)).toBe(
      '/default-banner.jpg'
    )
    expect(await meta(html, 'meta[property="og:image"]')).toBe('http://localhost/og.jpg')
    // The duplicate's page is the first item's: its id leads there.
    const duplicate = await fetchPage('/en/enterprises/1-duplicate', backend.env(), {
      redirect: 'manual',
    })
    expect(duplicate.headers.get('Location')).toBe('/en/enterprises/1-first')
  })
})
