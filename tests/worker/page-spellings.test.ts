/**
 * No crafted address costs a render or a backend call: every spelling of every page's
 * address (percent-encoding, case, dot segments, duplicate slashes, trailing characters) is a
 * page-cache hit, a redirect to the canonical spelling on this site, or a 404, and the backend
 * never sees a page key the site's own links would not send (src/middleware/language/).
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeBackend } from '../support/worker/fake-backend'
import { fetchPage } from '../support/worker/worker'
import { PAGE_PATHS as PAGE_KEYS } from '../../src/shared/site-paths'

const PREFIXES = ['', '/en', '/ru']

/** The canonical address of `key` under `prefix`. */
const addressOf = (prefix: string, key: string) => (key === '/' ? prefix || '/' : `${prefix}${key}`)
const CANONICAL = PREFIXES.flatMap((prefix) => PAGE_KEYS.map((key) => addressOf(prefix, key)))

const encodeAll = (text: string) =>
  [...text].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')
const encodeFirst = (text: string, upper: boolean) => {
  const hex = text.charCodeAt(0).toString(16)
  return `%${upper ? hex.toUpperCase() : hex}${text.slice(1)}`
}

/** Spellings of the page `key` under `prefix` (prefix '' is Armenian, also spelled '/hy'). */
function spellingsOf(prefix: string, key: string): string[] {
  const name = key.slice(1)
  const lng = prefix.slice(1)
  const spellings: string[] = []
  const prefixes = [
    prefix,
    ...(prefix
      ? [
          `/${encodeAll(lng)}`,
          `/${encodeFirst(lng, true)}`,
          prefix.toUpperCase(),
          `/${lng[0]!.toUpperCase()}${lng[1]}`,
        ]
      : ['/hy', '/%68y', '/HY']),
  ]
  for (const p of prefixes) {
    const base = addressOf(p, key)
    spellings.push(base, `${base}/`, `${base}//`, `/${base}`, `//${base}`.replace(/^\/{3,}/, '//'))
    if (p)
      spellings.push(
        `${p}//${name}`,
        `${p}///${name}`,
        `${p}/./${name}`,
        `${p}/x/../${name}`,
        `${p}/%2e/${name}`,
        `${p}/%2E%2E/${p.slice(1)}/${name}`
      )
  }
  if (name) {
    const at = (rest: string) => `${prefix}/${rest}`
    spellings.push(
      at(encodeFirst(name, false)),
      at(encodeFirst(name, true)),
      at(encodeAll(name)),
      at(`%25${name.charCodeAt(0).toString(16)}${name.slice(1)}`),
      at(name.toUpperCase()),
      at(`${name[0]!.toUpperCase()}${name.slice(1)}`),
      at(`${name.slice(0, -1)}${encodeFirst(name.slice(-1), true)}`),
      ...[
        '.',
        '..',
        ';',
        ';x=1',
        '~',
        '-',
        '_',
        '%20',
        '%00',
        '%09',
        '%0a',
        '%2F',
        '%2f',
        '%5C',
        '%2e',
        '%2E',
        '.html',
        '/.',
        '/..',
        '\\',
        '%3F',
        '%23',
        '%E2%80%8B',
      ].map((tail) => at(`${name}${tail}`)),
      at(`./${name}`),
      at(`${name}/x/..`),
      at(`${name}?x=1`),
      at(`${name}#frag`),
      at(`${name}%2Fx`)
    )
  } else {
    spellings.push(
      `${prefix}/%2e`,
      `${prefix}/.`,
      `${prefix}/index.html`,
      `${prefix}/%20`,
      `${prefix || '/'};`,
      `${prefix}/%2F`
    )
  }
  return [...new Set(spellings)]
}

/** As a request line would carry it: '//about' is a path here, not another host. */
const request = (spelling: string, env: Parameters<typeof fetchPage>[1]) =>
  fetchPage(`http://localhost${spelling}`, env)

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

describe('spellings of the pages’ addresses', () => {
  it('are each a page-cache hit, a redirect on this site or a 404, and never a new backend key', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    backend = fakeBackend()
    const env = backend.env({ PAGE_CACHE_TTL: '3600' })
    // Rendered once uncached, so that each page's image placeholders are settled and its cached
    // render is a complete page: a provisional one is kept only for PROVISIONAL_SECONDS, fewer
    // than the 300 spellings take on a busy machine.
    for (const address of CANONICAL) await fetchPage(address, backend.env({ PAGE_CACHE_TTL: '0' }))
    for (const address of CANONICAL) {
      expect((await fetchPage(address, env)).status, address).toBe(200)
    }
    const warm = backend.calls.length
    const pageKeys = new Set(
      backend.callsTo('page-meta-data').map((call) => call.url.searchParams.get('page'))
    )
    expect([...pageKeys].sort()).toEqual([...PAGE_KEYS].sort())

    const spellings = PREFIXES.flatMap((prefix) =>
      PAGE_KEYS.flatMap((key) => spellingsOf(prefix, key))
    )
    expect(spellings.length).toBeGreaterThan(300)
    const outcomes = { hit: 0, redirect: 0, notFound: 0 }
    for (const spelling of spellings) {
      const response = await request(spelling, env)
      const { status } = response
      if (status === 200) {
        expect(response.headers.get('X-Page-Cache'), `${spelling} rendered`).toBe('hit')
        outcomes.hit += 1
      } else if (status === 301 || status === 302 || status === 308) {
        const location = new URL(response.headers.get('Location') ?? '', 'http://localhost/')
        expect(location.origin, `${spelling} -> ${response.headers.get('Location')}`).toBe(
          'http://localhost'
        )
        outcomes.redirect += 1
      } else {
        expect(status, spelling).toBe(404)
        outcomes.notFound += 1
      }
    }
    // The payloads are fresh in KV: no spelling reaches the backend at all.
    expect(backend.calls.slice(warm).map((call) => call.url.pathname + call.url.search)).toEqual([])
    expect(outcomes.hit).toBeGreaterThan(0)
    expect(outcomes.redirect).toBeGreaterThan(0)
    expect(outcomes.notFound).toBeGreaterThan(0)
  }, 60_000)

  it.each([
    ['/%61bout', '/about'],
    ['/en/%65nterprises', '/en/enterprises'],
    ['/%65n/about', '/en/about'],
    ['/ru/contact%2Dus', '/ru/contact-us'],
    ['/%68y/%61bout?x=1', '/about?x=1'],
    ['/en//%61bout/', '/en/about'],
  ])('%s redirects to %s in one hop', async (from, to) => {
    backend = fakeBackend()
    const response = await fetchPage(from, backend.env())
    expect(response.status).toBe(301)
    expect(response.headers.get('Location')).toBe(to)
    expect(backend.calls).toEqual([])
  })

  it('asks the backend for page meta only with the real page keys, whatever the spelling', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    backend = fakeBackend()
    // Page cache off: every spelling that reaches a page renders it.
    const env = backend.env({ PAGE_CACHE_TTL: '0' })
    for (const spelling of PREFIXES.flatMap((prefix) =>
      PAGE_KEYS.flatMap((key) => spellingsOf(prefix, key))
    )) {
      await request(spelling, env)
    }
    const asked = new Set(
      backend.callsTo('page-meta-data').map((call) => call.url.searchParams.get('page'))
    )
    expect([...asked].every((page) => PAGE_KEYS.includes(page ?? ''))).toBe(true)
  }, 60_000)
})
