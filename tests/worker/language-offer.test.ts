/**
 * The language offer (src/views/layout/language-offer.tsx): every page carries the other two
 * languages' offers, hidden, and the browser decides which to show, so a page's HTML and headers
 * are the same whatever language the visitor's browser asks for, and the page cache keeps one copy.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Bindings } from '../../src/env'
import { PAGE_ADDRESSES } from '../support/page-addresses'
import { fakeBackend } from '../support/worker/fake-backend'
import { fetchPage } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  backend = undefined
  vi.restoreAllMocks()
})

/** What browsers send, and what crawlers and scripts send (no header at all). */
const VISITORS: Record<string, string>[] = [
  {},
  { 'Accept-Language': 'ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7' },
  { 'Accept-Language': 'en-GB,en;q=0.9' },
  { 'Accept-Language': 'hy-AM,hy;q=0.9' },
  { 'Accept-Language': 'de-DE,de;q=0.9' },
  { 'Accept-Language': 'ru', Cookie: 'selectedLanguage=en; lang=ru' },
]

/**
 * Headers that differ from one response to the next whatever was asked: the time and the worker's
 * own time for this request (Server-Timing's `dur`).
 */
const PER_REQUEST = new Set(['date', 'server-timing'])

function comparable(response: Response, body: string) {
  const headers = [...response.headers]
    .filter(([name]) => !PER_REQUEST.has(name))
    // A set of tags, listed in the order the render happened to read its payloads.
    .map(([name, value]) => [
      name,
      name === 'cache-tag' ? value.split(',').sort().join(',') : value,
    ])
  return { status: response.status, headers, body }
}

describe('one page for every language a browser asks for', () => {
  it('renders the same HTML and headers for every Accept-Language and cookie, on every page', async () => {
    backend = fakeBackend()
    // No page cache: every request below is rendered anew.
    const bindings = backend.env({ PAGE_CACHE_TTL: '0' })
    for (const address of PAGE_ADDRESSES) {
      // The first render of a page computes its image placeholders and is provisional until they are in.
      await fetchPage(address, bindings)
      const answers = []
      for (const headers of VISITORS) {
        const response = await fetchPage(address, bindings, { headers })
        answers.push(comparable(response, await response.text()))
      }
      expect(answers[0]!.status, address).toBe(200)
      for (const answer of answers.slice(1)) expect(answer, address).toEqual(answers[0])
      const vary = answers[0]!.headers.find(([name]) => name === 'vary')?.[1] ?? ''
      expect(vary, address).not.toMatch(/accept-language|cookie/i)
    }
  })

  it('keeps one copy of a page: every language asked for after the first is served from it', async () => {
    backend = fakeBackend()
    for (const address of ['/', '/en/about', '/ru/contact-us']) {
      const [first, ...others] = VISITORS
      const rendered = await fetchPage(address, backend.env(), { headers: first })
      expect(rendered.headers.get('X-Page-Cache'), address).toBe('miss')
      let body = await rendered.text()
      // Its first render is provisional (placeholders not in yet): the next one is the copy kept.
      if (rendered.headers.get('ETag')?.includes('provisional'))
        body = await (await fetchPage(address, backend.env(), { headers: first })).text()
      for (const headers of others) {
        const response = await fetchPage(address, backend.env(), { headers })
        expect(response.headers.get('X-Page-Cache'), address).toBe('hit')
        expect(await response.text(), address).toBe(body)
      }
    }
  })
})

describe('the offers a page carries', () => {
  it('offers the same page in each other language, hidden, in that language, keeping its query', async () => {
    // The reference content service, whose first project is the one asked about.
    const html = await (
      await fetchPage('/ru/contact-us?project=1', env as unknown as Bindings)
    ).text()
    const offers = [...html.matchAll(/<aside [^>]*data-language-offer[^>]*>.*?<\/aside>/g)].map(
      ([markup]) => markup
    )
    expect(offers).toHaveLength(2)
    const [armenian, english] = offers
    expect(armenian).toMatch(/ lang="hy"/)
    expect(armenian).toMatch(/ hidden=""/)
    expect(armenian).toMatch(/aria-label="Լեզվի ընտրություն"/)
    expect(armenian).toMatch(
      /<a [^>]*href="\/contact-us\?project=1"[^>]*hrefLang="hy"|hreflang="hy"/i
    )
    expect(armenian).toContain('Այս էջը հասանելի է հայերենով')
    expect(armenian).toMatch(/<button type="button" [^>]*aria-label="Փակել"/)
    expect(english).toMatch(/ lang="en"/)
    expect(english).toMatch(/ hidden=""/)
    expect(english).toMatch(/href="\/en\/contact-us\?project=1"/)
    expect(english).toContain('This page is available in English')
    expect(english).toMatch(/aria-label="Close"/)
  })

  it('offers nothing on a page the site does not have', async () => {
    backend = fakeBackend()
    const response = await fetchPage('/en/no-such-page', backend.env())
    expect(response.status).toBe(404)
    expect(await response.text()).not.toContain('<aside')
  })
})
