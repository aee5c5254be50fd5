/**
 * No query value makes a render (src/routes/page-query.ts): a project is kept only on the contact
 * page, and only for an id the enterprises list has; any other value, on any page, gets the plain
 * page from the page cache. A render is an answer the page cache did not serve (X-Page-Cache other
 * than `hit`), as in tests/worker/page-cache.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { contactPathAbout } from '../../src/shared/contact-fields'
import { getT } from '../../src/shared/i18n'
import { LANGUAGES } from '../../src/shared/languages'
import { SAMPLE_PROJECT_KEY } from '../support/page-addresses'
import { fakeBackend } from '../support/worker/fake-backend'
import { selectOne } from '../support/worker/views'
import { fetchPage } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

/** The fake backend's one project (tests/support/worker/fake-backend.ts). */
const PROJECT_ID = '3'

/** 20 crafted queries: ids no project has, the real project's id, junk, long, encoded, repeated. */
const CRAFTED = [
  'project=999',
  'project=4',
  'project=3.0',
  'project=a_b~c',
  `project=${'9'.repeat(64)}`,
  `project=${'9'.repeat(65)}`,
  `project=${'x'.repeat(10 * 1024)}`,
  `project=${encodeURIComponent('"><script>alert(1)</script>')}`,
  `project=${PROJECT_ID}`,
  'project=%33',
  `project=${PROJECT_ID}&project=999`,
  `project=999&project=${PROJECT_ID}`,
  'project=',
  'project',
  'project=%20',
  `project=${PROJECT_ID}%00`,
  'project=%E2%80%AE3',
  `PROJECT=${PROJECT_ID}`,
  `project[]=${PROJECT_ID}`,
  `project=${PROJECT_ID}&utm_source=mail&fbclid=abc&sent=2`,
]

/** One page of each kind, and the contact page, plain and about the project, in every language. */
const PAGES = [
  '/ru',
  '/en/about',
  '/ru/enterprises',
  `/en${SAMPLE_PROJECT_KEY}`,
  '/contact-us',
  '/en/contact-us',
  '/ru/contact-us',
  ...LANGUAGES.map((lng) => contactPathAbout(PROJECT_ID, lng)),
]

describe('a query value on any page', () => {
  it('makes no render after the page’s first: 20 crafted ?project= values get the page from the cache', async () => {
    expect(CRAFTED).toHaveLength(20)
    backend = fakeBackend()
    // Rendered once uncached, so that each page's image placeholders are settled and its first
    // cached render is a complete page (a provisional one is kept only for seconds).
    for (const path of PAGES) await fetchPage(path, backend.env({ PAGE_CACHE_TTL: '0' }))
    for (const path of PAGES) {
      const first = await fetchPage(path, backend.env())
      expect(first.status, path).toBe(200)
      expect(first.headers.get('X-Page-Cache'), path).toBe('miss')
      expect(first.headers.get('ETag'), path).not.toContain('provisional')
    }
    const backendCalls = backend.calls.length

    const renders: string[] = []
    for (const path of PAGES) {
      for (const query of CRAFTED) {
        const address = `${path}${path.includes('?') ? '&' : '?'}${query}`
        const response = await fetchPage(address, backend.env())
        expect(response.status, address).toBe(200)
        if (response.headers.get('X-Page-Cache') !== 'hit') renders.push(address.slice(0, 120))
      }
    }
    expect(renders).toEqual([])
    expect(backend.calls).toHaveLength(backendCalls)
  })

  it('gives the contact page about a project only for an id the enterprises list has, on the contact page only', async () => {
    backend = fakeBackend()
    const about = async (path: string) =>
      (
        await selectOne(
          await (await fetchPage(path, backend!.env())).text(),
          '.contact-form-area__about'
        )
      )?.text
    expect(await about(`/en/contact-us?project=${PROJECT_ID}`)).toContain(
      'Northern Avenue Business Centre'
    )
    expect(await about(`/en/contact-us?project=%33`)).toContain('Northern Avenue Business Centre')
    expect(await about(`/en/contact-us?project=999`)).toBeUndefined()
    expect(await about(`/en/contact-us?project=999&project=${PROJECT_ID}`)).toBeUndefined()

    const plain = await fetchPage('/en/about', backend.env())
    const asked = await fetchPage(`/en/about?project=${PROJECT_ID}`, backend.env())
    expect(asked.headers.get('X-Page-Cache')).toBe('hit')
    expect(asked.headers.get('ETag')).toBe(plain.headers.get('ETag'))
  })

  it('keeps the sent notice on the contact page only', async () => {
    backend = fakeBackend()
    const sent = await fetchPage('/en/contact-us?sent=1', backend.env())
    expect((await selectOne(await sent.text(), '[role=status]'))?.text).toBe(
      getT('en')('contact.success')
    )
    const plain = await fetchPage('/en/about', backend.env())
    const other = await fetchPage('/en/about?sent=1', backend.env())
    expect(other.headers.get('X-Page-Cache')).toBe('hit')
    expect(other.headers.get('ETag')).toBe(plain.headers.get('ETag'))
  })
})
