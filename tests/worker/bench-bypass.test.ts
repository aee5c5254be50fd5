/**
 * The bench's bypass of the page cache (src/middleware/page-cache/): with CACHE_BYPASS_TOKEN set and
 * sent, `page` renders from the cached payloads and `all` loads every payload from the backend; any
 * other request is served from the page cache as usual.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BYPASS_HEADER, BYPASS_TOKEN_HEADER } from '../../src/middleware/page-cache'
import { fakeBackend } from './support/fake-backend'
import { fetchPage } from './support/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

describe('the bench bypass', () => {
  const token = 'bench-secret'
  const bypass = (mode: string, given = token) => ({
    headers: { [BYPASS_HEADER]: mode, [BYPASS_TOKEN_HEADER]: given },
  })

  it("renders from cached payloads with 'page', and loads every payload with 'all'", async () => {
    backend = fakeBackend()
    const bindings = backend.env({ CACHE_BYPASS_TOKEN: token })
    await fetchPage('/en', bindings)
    const calls = backend.calls.length

    const page = await fetchPage('/en', bindings, bypass('page'))
    expect(page.headers.get('X-Page-Cache')).toBe('bypass')
    expect(await page.text()).toContain('<html lang="en">')
    expect(backend.calls).toHaveLength(calls)

    const all = await fetchPage('/en', bindings, bypass('all'))
    expect(all.headers.get('X-Page-Cache')).toBe('bypass')
    expect(backend.callsTo('get-home-page')).toHaveLength(2)
  })

  it('is ignored without the right token, or when no token is configured', async () => {
    backend = fakeBackend()
    await fetchPage('/en', backend.env({ CACHE_BYPASS_TOKEN: token }))
    const wrong = await fetchPage(
      '/en',
      backend.env({ CACHE_BYPASS_TOKEN: token }),
      bypass('all', 'guess')
    )
    expect(wrong.headers.get('X-Page-Cache')).toBe('hit')
    const unset = await fetchPage('/en', backend.env({ CACHE_BYPASS_TOKEN: '' }), bypass('all', ''))
    expect(unset.headers.get('X-Page-Cache')).toBe('hit')
    const noCache = await fetchPage('/en', backend.env(), {
      headers: { 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
    })
    expect(noCache.headers.get('X-Page-Cache')).toBe('hit')
  })
})
