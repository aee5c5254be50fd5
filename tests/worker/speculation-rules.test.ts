/**
 * Speculation rules (src/middleware/speculation-rules/): every page names the rule set in a
 * `Speculation-Rules` header, the rule set is served with its media type, its patterns (evaluated
 * here with the runtime's own URLPattern, as Chromium evaluates them) match every page in every
 * language and nothing else, and a prerender request is answered from the page cache like a visit.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PAGE_PATTERNS } from '../../src/routes/pages'
import { PAGE_PATHS } from '../../src/shared/site-paths'
import {
  SPECULATION_RULES_PATH,
  SPECULATION_RULES_TYPE,
  speculationRulesFor,
} from '../../src/middleware/speculation-rules'
import { PAGE_ADDRESSES } from '../support/page-addresses'
import { fakeBackend } from '../support/worker/fake-backend'
import { fetchPage } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  backend = undefined
  vi.restoreAllMocks()
})

const ORIGIN = 'https://erebuni.example.am'
/** What Chromium sends with a prerender's requests. */
const PRERENDER = { 'Sec-Purpose': 'prefetch;prerender', Accept: 'text/html' }

type RuleSet = ReturnType<typeof speculationRulesFor>

/** Whether the rule set prerenders a link to `href` on a page of ORIGIN (its `href_matches` and `selector_matches` parts). */
function prerenders(rules: RuleSet, href: string): boolean {
  const [rule] = rules.prerender
  const [matches] = rule!.where.and
  const url = new URL(href, ORIGIN)
  return matches!.href_matches!.some((init) =>
    new URLPattern({ ...init, baseURL: `${ORIGIN}${SPECULATION_RULES_PATH}` }).test(url)
  )
}

describe('speculation rules', () => {
  it('names the rule set on every page in every language, rendered or from the page cache', async () => {
    backend = fakeBackend()
    for (const address of PAGE_ADDRESSES) {
      for (const expected of ['miss', 'hit']) {
        const response = await fetchPage(address, backend.env())
        expect(response.headers.get('X-Page-Cache'), address).toBe(expected)
        expect(response.headers.get('Speculation-Rules'), address).toBe(
          `"${SPECULATION_RULES_PATH}"`
        )
      }
    }
  })

  it('names it on error pages too, and never on what is not HTML', async () => {
    backend = fakeBackend()
    expect(
      (await fetchPage('/en/no-such-page', backend.env())).headers.get('Speculation-Rules')
    ).toBe(`"${SPECULATION_RULES_PATH}"`)
    for (const path of ['/sitemap.xml', '/robots.txt', SPECULATION_RULES_PATH]) {
      expect(
        (await fetchPage(path, backend.env())).headers.get('Speculation-Rules'),
        path
      ).toBeNull()
    }
  })

  it('serves the rule set with its media type, cacheable, with the security headers', async () => {
    backend = fakeBackend()
    const response = await fetchPage(SPECULATION_RULES_PATH, backend.env())
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe(SPECULATION_RULES_TYPE)
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=3600')
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
    const rules = (await response.json()) as RuleSet
    expect(rules).toEqual(speculationRulesFor(PAGE_PATHS, PAGE_PATTERNS))
    expect(rules.prerender).toEqual([
      expect.objectContaining({ source: 'document', eagerness: 'eager' }),
    ])
  })

  it('prerenders links to every page in every language, with or without a fragment', () => {
    const rules = speculationRulesFor(PAGE_PATHS, PAGE_PATTERNS)
    for (const address of PAGE_ADDRESSES) {
      expect(prerenders(rules, address), address).toBe(true)
      expect(prerenders(rules, `${address}#section`), `${address}#section`).toBe(true)
    }
  })

  it('never prerenders the sent notice, the API, images, files, other spellings or other origins', () => {
    const rules = speculationRulesFor(PAGE_PATHS, PAGE_PATTERNS)
    const never = [
      '/contact-us?sent=1',
      '/en/contact-us?sent=1',
      '/ru/contact-us?sent=1',
      '/en/about?utm_source=x',
      '/api/contact',
      '/api/vitals',
      '/api/client-errors',
      '/api/publish',
      '/_image?src=%2Fimages%2Fa.jpg&w=640',
      '/_image',
      SPECULATION_RULES_PATH,
      '/sitemap.xml',
      '/robots.txt',
      '/favicon.ico',
      '/assets/main-abc123.js',
      '/images/banners/home-hero-1.jpg',
      '/en/no-such-page',
      '/de/about',
      '/hy',
      '/hy/about',
      '/en/',
      '/en/about/',
      '/EN/about',
      '/en/en/about',
      '/about/enterprises',
      '/enterprises/',
      '/en/enterprises/3-northern-avenue-business-centre/more',
      '/ru/enterprises/3-northern-avenue-business-centre?x=1',
      'https://evil.example/en/about',
      'http://erebuni.example.am/en/about',
    ]
    for (const href of never) expect(prerenders(rules, href), href).toBe(false)
  })

  it('leaves out links marked for download, a new tab or nofollow', () => {
    const [rule] = speculationRulesFor(PAGE_PATHS, PAGE_PATTERNS).prerender
    expect(rule!.where.and[1]).toEqual({
      not: { selector_matches: '[download], [target=_blank], [rel~=nofollow]' },
    })
  })

  it('answers a prerender request of a visited page from the page cache: no render, no backend call', async () => {
    backend = fakeBackend()
    for (const address of PAGE_ADDRESSES) await fetchPage(address, backend.env())
    const calls = backend.calls.length
    for (const address of PAGE_ADDRESSES) {
      const response = await fetchPage(address, backend.env(), { headers: PRERENDER })
      expect(response.status, address).toBe(200)
      expect(response.headers.get('X-Page-Cache'), address).toBe('hit')
    }
    expect(backend.calls.length).toBe(calls)
  })
})
