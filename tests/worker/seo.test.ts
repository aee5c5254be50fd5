/**
 * Indexing (src/routes/seo.ts, src/views/components/organization-json-ld.tsx): the sitemap with
 * hreflang alternates, robots.txt, and the company's JSON-LD in every page's head.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeBackend, json, samplePayloads } from '../support/worker/fake-backend'
import { fetchPage } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

const ORIGIN = 'https://www.erebuni.example'
/** The navbar's pages and the sample backend's one project (tests/support/worker/fake-backend.ts). */
const PAGES = [
  '/',
  '/about',
  '/enterprises',
  '/contact-us',
  '/enterprises/3-northern-avenue-business-centre',
]
const ADDRESSES = PAGES.flatMap((page) => [
  page,
  page === '/' ? '/en' : `/en${page}`,
  page === '/' ? '/ru' : `/ru${page}`,
])

type SitemapUrl = { loc: string; alternates: Record<string, string> }

function parseSitemap(xml: string): SitemapUrl[] {
  return [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map(([, block]) => ({
    loc: /<loc>([^<]*)<\/loc>/.exec(block!)![1]!,
    alternates: Object.fromEntries(
      [...block!.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map(
        ([, lang, href]) => [lang, href]
      )
    ),
  }))
}

function jsonLdOf(html: string): Record<string, unknown>[] {
  const head = html.slice(0, html.indexOf('</head>'))
  return [...head.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    ([, body]) => JSON.parse(body!)
  )
}

describe('GET /sitemap.xml', () => {
  it('lists every page in every language with absolute URLs from the request origin', async () => {
    backend = fakeBackend()
    const response = await fetchPage(`${ORIGIN}/sitemap.xml`, backend.env())
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('application/xml; charset=utf-8')
    const xml = await response.text()
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9" xmlns:xhtml="http:\/\/www.w3.org\/1999\/xhtml">/
    )
    const locs = parseSitemap(xml).map((url) => url.loc)
    expect(locs.sort()).toEqual(ADDRESSES.map((path) => `${ORIGIN}${path}`).sort())
    // The projects come from the enterprises payload, which is cached like any page's.
    expect(backend.calls.map((call) => call.url.pathname.split('/').pop())).toEqual([
      'get-enterprises-page',
    ])
    await fetchPage(`${ORIGIN}/sitemap.xml`, backend.env())
    expect(backend.calls).toHaveLength(1)
  })

  it('gives each address its hreflang alternates, itself included, with x-default in Armenian', async () => {
    backend = fakeBackend()
    const urls = parseSitemap(
      await (await fetchPage(`${ORIGIN}/sitemap.xml`, backend.env())).text()
    )
    const about = {
      hy: `${ORIGIN}/about`,
      en: `${ORIGIN}/en/about`,
      ru: `${ORIGIN}/ru/about`,
      'x-default': `${ORIGIN}/about`,
    }
    for (const loc of [about.hy, about.en, about.ru]) {
      expect(urls.find((url) => url.loc === loc)?.alternates).toEqual(about)
    }
    for (const url of urls) expect(Object.values(url.alternates)).toContain(url.loc)
  })

  it('names the same alternates as the page head', async () => {
    backend = fakeBackend()
    const urls = parseSitemap(
      await (await fetchPage(`${ORIGIN}/sitemap.xml`, backend.env())).text()
    )
    for (const path of ['/ru/contact-us', '/en', '/enterprises']) {
      const html = await (await fetchPage(`${ORIGIN}${path}`, backend.env())).text()
      const head = Object.fromEntries(
        [...html.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]+)"\/>/g)].map(
          ([, lang, href]) => [lang, href]
        )
      )
      expect(urls.find((url) => url.loc === `${ORIGIN}${path}`)?.alternates).toEqual(head)
    }
  })
})

describe('GET /robots.txt', () => {
  it('allows crawling, keeps crawlers out of /api/ and points to the sitemap', async () => {
    backend = fakeBackend()
    const response = await fetchPage(`${ORIGIN}/robots.txt`, backend.env())
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^text\/plain/)
    const body = await response.text()
    expect(body.split('\n')).toEqual(
      expect.arrayContaining([
        'User-agent: *',
        'Allow: /',
        'Disallow: /api/',
        `Sitemap: ${ORIGIN}/sitemap.xml`,
      ])
    )
  })
})

describe('organization JSON-LD', () => {
  const contact = {
    phoneNumber: '+374 10 123456',
    contactEmail: 'info@erebuni.example',
    address: '1 Erebuni St, Yerevan',
    ru_address: 'ул. Эребуни 1, Ереван',
    arm_address: 'Էրեբունի 1, Երևան',
    facebook: 'https://facebook.com/erebuni',
    instagram: 'https://instagram.com/erebuni',
    linkedin: '',
    twitter: 'javascript:alert(1)',
  }

  for (const path of ADDRESSES) {
    it(`describes the company in the head of ${path}`, async () => {
      backend = fakeBackend({
        'contact-us': json({
          payload: { ...(samplePayloads['contact-us'] as object), ...contact },
        }),
      })
      const html = await (await fetchPage(`${ORIGIN}${path}`, backend.env())).text()
      const [organization, ...rest] = jsonLdOf(html)
      // A project's page also says where it sits (tests/worker/pages-projects.test.ts).
      expect(rest.map((block) => (block as { '@type'?: string })['@type'])).toEqual(
        path.includes('/enterprises/') ? ['BreadcrumbList'] : []
      )
      const lng = (/^\/(en|ru)(?=\/|$)/.exec(path)?.[1] ?? 'hy') as 'hy' | 'en' | 'ru'
      expect(organization).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'GeneralContractor',
        url: `${ORIGIN}${lng === 'hy' ? '/' : `/${lng}`}`,
        logo: `${ORIGIN}/logo.png`,
        telephone: '+374 10 123456',
        email: 'info@erebuni.example',
        address: {
          '@type': 'PostalAddress',
          streetAddress: { hy: contact.arm_address, en: contact.address, ru: contact.ru_address }[
            lng
          ],
          addressCountry: 'AM',
        },
        sameAs: ['https://facebook.com/erebuni', 'https://instagram.com/erebuni'],
      })
      expect(organization!.name).toEqual(expect.any(String))
    })
  }

  it('leaves out contact fields that have no value', async () => {
    backend = fakeBackend({ 'contact-us': json({ payload: {} }) })
    const [organization] = jsonLdOf(
      await (await fetchPage(`${ORIGIN}/en/about`, backend.env())).text()
    )
    expect(Object.keys(organization!).sort()).toEqual([
      '@context',
      '@id',
      '@type',
      'description',
      'image',
      'logo',
      'name',
      'url',
    ])
  })

  it('is on error pages too, without contact data', async () => {
    backend = fakeBackend()
    const response = await fetchPage(`${ORIGIN}/en/nope`, backend.env())
    expect(response.status).toBe(404)
    const [organization] = jsonLdOf(await response.text())
    expect(organization).toMatchObject({
      '@type': 'GeneralContractor',
      url: `${ORIGIN}/en`,
      name: 'Erebuni Development',
    })
  })

  it('cannot be closed by a value from the backend', async () => {
    const hostile = '</script><script>alert(1)</script><!--'
    backend = fakeBackend({
      'contact-us': json({ payload: { address: hostile, contactEmail: 'a&b@<x>.am' } }),
    })
    const html = await (await fetchPage(`${ORIGIN}/en`, backend.env())).text()
    const block = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!
    expect(block).not.toMatch(/[<>]/)
    const organization = JSON.parse(block) as { address: { streetAddress: string }; email: string }
    expect(organization.address.streetAddress).toBe(hostile)
    expect(organization.email).toBe('a&b@<x>.am')
  })
})
