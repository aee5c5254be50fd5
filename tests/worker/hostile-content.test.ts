/**
 * Hostile or careless CMS content: every URL-valued field of every payload is parsed
 * once at load (src/content/addresses.ts, schemas.ts), so a malformed or hostile address drops only
 * its own slot, is reported with the field's path, and every page still answers 200 with nothing
 * unsafe in its links, images or social card.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ADDRESS_FIELDS } from '../../src/content/schemas'
import { fakeBackend, json } from '../support/worker/fake-backend'
import { select } from '../support/worker/views'
import { fetchPage } from '../support/worker/worker'

const PAGES = ['/', '/about', '/enterprises', '/contact-us'].flatMap((path) => [
  path,
  path === '/' ? '/en' : `/en${path}`,
  path === '/' ? '/ru' : `/ru${path}`,
])

/** Malformed and hostile values an editor (or an attacker with CMS access) could type. */
const HOSTILE: unknown[] = [
  'https://exa mple.com/a.jpg',
  'http://[',
  '//',
  'http://example.com:99999/a.jpg',
  'http://',
  'https://user:secret@example.com/a.jpg',
  'javascript:alert(1)',
  ' jav\tascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:image/svg+xml,<svg onload=alert(1)>',
  'vbscript:msgbox(1)',
  '\u0000/x',
  '"><script>alert(1)</script>',
  'x'.repeat(5000),
  42,
  { url: '/a.jpg' },
  ['https://example.com'],
  true,
]

const U = 'URL'
const item = {
  img: U,
  icon: U,
  iconLink: U,
  btnLink: U,
  title: 'Item',
  btnName: 'Go',
  description: '<p>Text</p>',
}

/** Payloads with every URL-valued field present, set to `U`. */
const TEMPLATES: Record<string, unknown> = {
  'get-home-page': {
    banner: [item],
    ru_banner: [item],
    arm_banner: [item],
    aboutHome: item,
    servicesHome: [item, item],
    enterprisesBtnName: 'All',
    enterprisesBtnLink: U,
    // More than three: the carousel; the enterprises page shows rows.
    enterprisesHome: [item, item, item, item].map((entry, id) => ({ ...entry, id })),
    foundersBtnName: 'Founders',
    foundersBtnLink: U,
    foundersHome: [{ id: 1, img: U, title: 'Founder' }],
  },
  'get-about-page': {
    title: 'About',
    description: '<p>About</p>',
    titleDescSection: { img: U, description: '<p>Quote</p>' },
    firstBanner: { img: U, titleBanner: 'About us' },
    secondBanner: { img: U },
    missions: [{ id: 1, img: U, title: 'Mission' }],
    thirdImage: { img: U, description: '<p>Partners</p>' },
    thirdBanner: [{ id: 1, img: U, imgLink: U, title: 'Partner' }],
  },
  'get-enterprises-page': {
    banner: { img: U, titleBanner: 'Enterprises' },
    enterprises: [item, item],
  },
  'contact-us': {
    phoneNumber: '+374 10 000000',
    contactEmail: 'info@example.am',
    ...Object.fromEntries(
      ['facebook', 'instagram', 'linkedin', 'twitter', 'youtube', 'pinterest', 'tiktok'].map(
        (key) => [key, U]
      )
    ),
    firstBanner: U,
    secondBanner: U,
    titleContact: 'Contact',
  },
  'navbar-data': { home: 'Home' },
  'page-meta-data': { title: 'Erebuni', image: U },
}

/** `template` with every `U` replaced by `value`. */
function fill(template: unknown, value: unknown): unknown {
  if (template === U) return value
  if (Array.isArray(template)) return template.map((entry) => fill(entry, value))
  if (typeof template === 'object' && template !== null) {
    return Object.fromEntries(
      Object.entries(template).map(([key, entry]) => [key, fill(entry, value)])
    )
  }
  return template
}

/** Every placeholder sits in a field the schemas treat as an address. */
function placeholderKeys(template: unknown): string[] {
  if (Array.isArray(template)) return template.flatMap(placeholderKeys)
  if (typeof template !== 'object' || template === null) return []
  return Object.entries(template).flatMap(([key, entry]) =>
    entry === U ? [key] : placeholderKeys(entry)
  )
}

function backendWith(value: unknown) {
  return fakeBackend(
    Object.fromEntries(
      Object.entries(TEMPLATES).map(([call, template]) => [
        call,
        json({ payload: fill(template, value) }),
      ])
    )
  )
}

/** Throws unless every address in the page is site-relative (one '/'), http(s), mailto: or tel:. */
async function expectSafeAddresses(html: string, page: string) {
  const links = await select(html, 'a[href]')
  for (const { attrs } of links) {
    const href = attrs.href!
    expect(href, `${page}: <a href="${href}">`).toMatch(
      /^(\/(?![/\\])|#|https?:\/\/[^\s@]+$|mailto:|tel:)/i
    )
    if (/^https?:/i.test(href)) expect(attrs.rel, `${page}: ${href}`).toContain('noopener')
  }
  for (const { attrs } of await select(html, 'img[src], link[href], script[src]')) {
    const address = attrs.src ?? attrs.href!
    expect(address, `${page}: ${address}`).toMatch(/^(\/(?![/\\])|https?:\/\/[^\s@]+$)/i)
  }
  for (const { attrs } of await select(
    html,
    'meta[property="og:image"], meta[name="twitter:image"]'
  )) {
    expect(() => new URL(attrs.content!)).not.toThrow()
    expect(new URL(attrs.content!).protocol, `${page}: ${attrs.content}`).toMatch(/^https?:$/)
  }
  // Our own placeholders are data:image/webp; a hostile value would be data:image/svg or data:text.
  expect(html).not.toMatch(/javascript:|vbscript:|data:text|data:image\/svg|<script>alert/i)
}

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

describe('a malformed or hostile address in any URL field of any payload', () => {
  it('covers every URL field of payload-fields.md', () => {
    const keys = new Set(Object.values(TEMPLATES).flatMap(placeholderKeys))
    expect([...keys].sort()).toEqual([...ADDRESS_FIELDS].sort())
  })

  it.each(HOSTILE.map((value) => [JSON.stringify(value).slice(0, 60), value]))(
    '%s leaves all twelve pages answering 200 with only safe addresses',
    async (_label, value) => {
      vi.spyOn(console, 'warn').mockImplementation(() => undefined)
      backend = backendWith(value)
      const env = backend.env({ PAGE_CACHE_TTL: '0' })
      for (const page of PAGES) {
        const response = await fetchPage(page, env)
        const html = await response.text()
        expect(response.status, page).toBe(200)
        await expectSafeAddresses(html, page)
      }
    }
  )

  it('drops only the bad slot: the fallback image shows and the rest of the payload renders', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    backend = fakeBackend({
      'get-enterprises-page': json({
        payload: {
          enterprises: [
            {
              title: 'Ararat Residence',
              img: 'https://exa mple.com/a.jpg',
              btnName: 'Open',
              btnLink: '/about',
            },
          ],
        },
      }),
    })
    const html = await (
      await fetchPage('/en/enterprises', backend.env({ PAGE_CACHE_TTL: '0' }))
    ).text()
    expect(html).toContain('Ararat Residence')
    // The slot's bundled fallback, through the image route (src/images/image-url.ts).
    expect(html).toContain(`src=${encodeURIComponent('/default-enterprise.jpg')}`)
    expect((await select(html, 'a[href="/en/about"]')).length).toBeGreaterThan(0)
  })

  it('is logged and reported once per load with the path of every dropped field', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    backend = backendWith('https://exa mple.com/a.jpg')
    const env = backend.env({ PAGE_CACHE_TTL: '0' })
    await fetchPage('/en', env)
    await fetchPage('/en', env)
    const reports = warn.mock.calls
      .map((call) => String(call[0]))
      .filter((line) => line.includes('get-home-page') && line.includes('dropped'))
    expect(reports).toHaveLength(1)
    expect(reports[0]).toContain('banner[0].img')
    expect(reports[0]).toContain('enterprisesHome[3].iconLink')
    expect(reports[0]).toContain('foundersBtnLink')
  })
})

describe('internal links on an Armenian page', () => {
  it.each([
    '/en//evil.example',
    '/en/\\evil.example',
    '/en/\t/evil.example',
    '/ru//\\evil.example/x',
  ])('stay internal after the language rewrite: %j in a link field and in HTML', async (href) => {
    backend = fakeBackend({
      'get-home-page': json({
        payload: {
          banner: [
            {
              title: 'Building Yerevan',
              btnName: 'Go',
              btnLink: href,
              description: `<p><a href="${href}">more</a></p>`,
            },
          ],
        },
      }),
    })
    const html = await (await fetchPage('/', backend.env({ PAGE_CACHE_TTL: '0' }))).text()
    const links = (await select(html, 'main a[href]')).filter(({ text }) => /Go|more/.test(text))
    expect(links).toHaveLength(2)
    for (const { attrs } of links) {
      expect(attrs.href).toMatch(/^\/(?![/\\])/)
      expect(new URL(attrs.href!, 'https://site.example').origin).toBe('https://site.example')
      expect(attrs.target).toBeUndefined()
    }
  })
})

describe('the social card image', () => {
  it.each([
    ['https://cdn.example.am/og.jpg', 'https://cdn.example.am/og.jpg'],
    ['/og.jpg', 'http://localhost/og.jpg'],
    ['//cdn.example.am/og.jpg', 'https://cdn.example.am/og.jpg'],
  ])('comes from the parsed address %s', async (image, expected) => {
    backend = fakeBackend({ 'page-meta-data': json({ payload: { title: 'Erebuni', image } }) })
    const html = await (await fetchPage('/en/about', backend.env({ PAGE_CACHE_TTL: '0' }))).text()
    expect((await select(html, 'meta[property="og:image"]'))[0]?.attrs.content).toBe(expected)
    expect((await select(html, 'meta[name="twitter:image"]'))[0]?.attrs.content).toBe(expected)
  })

  it.each(['javascript:alert(1)', 'data:image/png;base64,AAAA', 'https://exa mple.com/og.jpg'])(
    'is left out for %s',
    async (image) => {
      vi.spyOn(console, 'warn').mockImplementation(() => undefined)
      backend = fakeBackend({ 'page-meta-data': json({ payload: { title: 'Erebuni', image } }) })
      const html = await (await fetchPage('/en/about', backend.env({ PAGE_CACHE_TTL: '0' }))).text()
      expect(await select(html, 'meta[property="og:image"], meta[name="twitter:image"]')).toEqual(
        []
      )
    }
  )
})
