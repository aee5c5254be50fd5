/**
 * The bench's plain page (src/routes/bench-floor.ts): served by the worker, through its security
 * headers, only where BENCH_FLOOR_PAGE is 'on' (the bench's `wrangler dev`); everywhere else, every
 * deployment included, its address is an unknown page.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { FLOOR_PAGE_HTML, FLOOR_PAGE_PATH } from '../../src/shared/floor-page'
import { fakeBackend } from './support/fake-backend'
import { fetchPage } from './support/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => backend?.restore())

describe('the bench floor page', () => {
  it('is an unknown page (404) when BENCH_FLOOR_PAGE is unset, as in every deployment', async () => {
    backend = fakeBackend()
    const response = await fetchPage(FLOOR_PAGE_PATH, backend.env())
    expect(response.status).toBe(404)
    expect(await response.text()).not.toContain('A plain page')
  })

  it("is an unknown page when BENCH_FLOOR_PAGE is anything but 'on'", async () => {
    backend = fakeBackend()
    const response = await fetchPage(FLOOR_PAGE_PATH, {
      ...backend.env(),
      BENCH_FLOOR_PAGE: 'true',
    })
    expect(response.status).toBe(404)
  })

  it("serves the plain page with the site's security headers when BENCH_FLOOR_PAGE is 'on'", async () => {
    backend = fakeBackend()
    const response = await fetchPage(FLOOR_PAGE_PATH, { ...backend.env(), BENCH_FLOOR_PAGE: 'on' })
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/)
    expect(response.headers.get('Content-Security-Policy')).toContain("script-src 'self'")
    expect(await response.text()).toBe(FLOOR_PAGE_HTML)
  })
})
