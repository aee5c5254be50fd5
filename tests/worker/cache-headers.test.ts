/**
 * The two halves of a page's caching policy (docs/decisions/0017-browser-and-edge-cache-headers.md),
 * read by http-cache-semantics (RFC 9111) as a browser's private cache and as the edge reads them:
 * a browser must revalidate every navigation (and gets a 304 while nothing changed); Cloudflare's
 * cache keeps the page PAGE_CACHE_TTL fresh, then serves it stale while it revalidates.
 */
import CachePolicy from 'http-cache-semantics'
import { afterEach, describe, expect, it } from 'vitest'
import { BROWSER_CACHE_CONTROL, EDGE_CACHE_CONTROL, STALE_SECONDS } from '../../src/freshness'
import { PAGE_ADDRESSES } from '../support/page-addresses'
import { fakeBackend } from '../support/worker/fake-backend'
import { fetchPage } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => backend?.restore())

const NAVIGATION = { method: 'GET', headers: { accept: 'text/html', host: 'localhost' } }

function headersOf(response: Response): Record<string, string> {
  return Object.fromEntries(
    [...response.headers].map(([name, value]) => [name.toLowerCase(), value])
  )
}

/** The page as a browser's cache holds it, `ageSeconds` after it came. */
function browserCopy(response: Response, ageSeconds = 0): CachePolicy {
  return new CachePolicy(
    NAVIGATION,
    { status: response.status, headers: { ...headersOf(response), age: String(ageSeconds) } },
    { shared: false }
  )
}

/** The page as Cloudflare's cache holds it: its targeted field read in place of Cache-Control (RFC 9213). */
function edgeCopy(response: Response, ageSeconds: number): CachePolicy {
  const headers = headersOf(response)
  const edge = headers[EDGE_CACHE_CONTROL.toLowerCase()]
  return new CachePolicy(
    NAVIGATION,
    {
      status: response.status,
      headers: { ...headers, 'cache-control': edge ?? '', age: String(ageSeconds) },
    },
    { shared: true }
  )
}

describe('page caching headers, as a browser reads them', () => {
  it.each(PAGE_ADDRESSES)(
    '%s: a browser keeps the page for 0 s and asks again at every navigation',
    async (path) => {
      backend = fakeBackend()
      const page = await fetchPage(path, backend.env())
      expect(page.status).toBe(200)
      expect(page.headers.get('Cache-Control')).toBe(BROWSER_CACHE_CONTROL)
      const copy = browserCopy(page)
      expect(copy.storable()).toBe(true)
      expect(copy.timeToLive()).toBe(0)
      const next = copy.evaluateRequest(NAVIGATION)
      expect(next.revalidation?.synchronous).toBe(true)
      expect(next.revalidation?.headers['if-none-match']).toBe(page.headers.get('ETag'))
    }
  )

  it('never lets a browser show its copy while it refetches, however old the copy is', async () => {
    backend = fakeBackend()
    const page = await fetchPage('/en/about', backend.env())
    for (const age of [1, 60, 450, 600, 3600]) {
      const next = browserCopy(page, age).evaluateRequest(NAVIGATION)
      expect(next.response, `${age} s: no copy to show meanwhile`).toBeUndefined()
      expect(next.revalidation?.synchronous, `${age} s`).toBe(true)
    }
  })

  it('answers the revalidation a browser sends with 304 while the page is unchanged', async () => {
    backend = fakeBackend()
    const page = await fetchPage('/ru/enterprises', backend.env())
    const revalidation = browserCopy(page).evaluateRequest(NAVIGATION).revalidation!
    const again = await fetchPage('/ru/enterprises', backend.env(), {
      headers: revalidation.headers as Record<string, string>,
    })
    expect(again.status).toBe(304)
    expect(again.headers.get('Cache-Control')).toBe(BROWSER_CACHE_CONTROL)
  })
})

describe('page caching headers, as the edge reads them', () => {
  it.each(['miss', 'hit'])(
    'a page (%s in the worker) is fresh at the edge for PAGE_CACHE_TTL, then served stale while it revalidates for days',
    async (status) => {
      backend = fakeBackend()
      await fetchPage('/en/contact-us', backend.env())
      if (status === 'hit') await fetchPage('/en/contact-us', backend.env())
      const page = await fetchPage('/en/contact-us', backend.env({ PAGE_CACHE_TTL: '45' }))
      expect(page.headers.get(EDGE_CACHE_CONTROL)).toBe(
        `public, max-age=45, stale-while-revalidate=${STALE_SECONDS}, stale-if-error=${STALE_SECONDS}`
      )
      expect(page.headers.get('CDN-Cache-Control')).toBeNull()

      expect(edgeCopy(page, 0).maxAge()).toBe(45)
      expect(edgeCopy(page, 30).evaluateRequest(NAVIGATION).revalidation).toBeUndefined()
      const stale = edgeCopy(page, 45 + STALE_SECONDS - 1).evaluateRequest(NAVIGATION)
      expect(stale.response).toBeDefined()
      expect(stale.revalidation?.synchronous).toBe(false)
      const expired = edgeCopy(page, 45 + STALE_SECONDS + 1).evaluateRequest(NAVIGATION)
      expect(expired.revalidation?.synchronous).toBe(true)
    }
  )

  it('keeps stale-while-revalidate out of the header browsers read', async () => {
    backend = fakeBackend()
    const page = await fetchPage('/', backend.env())
    expect(page.headers.get('Cache-Control')).not.toMatch(/stale-while-revalidate|s-maxage/)
    expect(page.headers.get(EDGE_CACHE_CONTROL)).toMatch(/stale-while-revalidate=\d+/)
  })

  it('lets the edge answer the first visitor after a quiet night from its copy, revalidating behind it', async () => {
    backend = fakeBackend()
    const page = await fetchPage('/en/about', backend.env())
    for (const hours of [11 / 60, 12, 60]) {
      const next = edgeCopy(page, hours * 3600).evaluateRequest(NAVIGATION)
      expect(next.response, `${hours} h without a visit`).toBeDefined()
      expect(next.revalidation?.synchronous, `${hours} h without a visit`).toBe(false)
    }
  })

  it('lets the edge keep serving its copy while the worker answers with an error', async () => {
    backend = fakeBackend()
    const page = await fetchPage('/en/about', backend.env())
    const copy = edgeCopy(page, 24 * 3600)
    const failed = copy.revalidatedPolicy(NAVIGATION, {
      status: 503,
      headers: { 'cache-control': 'no-store' },
    })
    expect(failed.modified).toBe(false)
    expect(failed.policy).toBe(copy)
  })

  it('sends no edge policy when PAGE_CACHE_TTL=0 turns page caching off', async () => {
    backend = fakeBackend()
    const page = await fetchPage('/en', backend.env({ PAGE_CACHE_TTL: '0' }))
    expect(page.headers.get(EDGE_CACHE_CONTROL)).toBeNull()
    expect(page.headers.get('ETag')).toMatch(/^W\//)
  })
})
