/**
 * What a preview never does to visitors: its cookie is scoped to /_preview (so browsers send it
 * nowhere else), no public path reads it, and its pages' vitals are not counted as visitors'.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Bindings } from '../../src/env'
import worker from '../../src/index'
import { PAGE_ADDRESSES } from '../support/page-addresses'
import { fakeBackend } from '../support/worker/fake-backend'
import { enterPreview, previewLink, PREVIEW_SECRET } from '../support/worker/preview'
import { recordingDataset } from '../support/worker/recording-dataset'
import { fetchPage } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  backend = undefined
  vi.restoreAllMocks()
})

function bindings(overrides: Partial<Bindings> = {}): Bindings {
  backend ??= fakeBackend()
  return backend.env({ PREVIEW_SECRET, ...overrides })
}

describe('the preview cookie', () => {
  it('is HttpOnly, SameSite=Lax, scoped to /_preview, short-lived and Secure off loopback', async () => {
    const link = await previewLink('/en/about', { origin: 'https://www.erebuni.example' })
    const response = await fetchPage(link, bindings(), { redirect: 'manual' })
    expect(response.status).toBe(303)
    expect(response.headers.get('Location')).toBe('/_preview/en/about')
    const cookie = response.headers.get('Set-Cookie') ?? ''
    expect(cookie).toMatch(/^site_preview=[\w.-]+;/)
    expect(cookie).toMatch(/; Path=\/_preview(;|$)/)
    expect(cookie).toMatch(/; HttpOnly(;|$)/)
    expect(cookie).toMatch(/; SameSite=Lax(;|$)/)
    expect(cookie).toMatch(/; Secure(;|$)/)
    const maxAge = Number(/Max-Age=(\d+)/.exec(cookie)?.[1])
    expect(maxAge).toBeGreaterThan(0)
    expect(maxAge).toBeLessThanOrEqual(30 * 60)
  })

  it('lasts at most an hour, even for a link that lives longer', async () => {
    const response = await fetchPage(await previewLink('/', { minutes: 24 * 60 }), bindings(), {
      redirect: 'manual',
    })
    const cookie = response.headers.get('Set-Cookie') ?? ''
    expect(Number(/Max-Age=(\d+)/.exec(cookie)?.[1])).toBeLessThanOrEqual(3600)
    expect(cookie).not.toMatch(/Secure/)
  })

  it('never makes a visitor page private, on any public path', async () => {
    const cookie = await enterPreview(await previewLink('/en/about'), bindings())
    for (const path of [...PAGE_ADDRESSES, '/robots.txt', '/sitemap.xml', '/no-such-page']) {
      const plain = await fetchPage(path, bindings())
      const withCookie = await fetchPage(path, bindings(), { headers: { Cookie: cookie } })
      expect(withCookie.status, path).toBe(plain.status)
      expect(withCookie.headers.get('Cache-Control'), path).toBe(plain.headers.get('Cache-Control'))
      expect(withCookie.headers.get('Cache-Control') ?? '', path).not.toMatch(/private|no-store/)
      expect(withCookie.headers.has('Set-Cookie'), path).toBe(false)
      expect(await withCookie.text(), path).not.toContain('/_preview')
    }
  })
})

describe('vitals of preview pages', () => {
  it('are answered as any beacon but written nowhere', async () => {
    const { points, dataset } = recordingDataset()
    const origin = 'https://www.erebuni.example'
    const post = async (path: string, page: string, body: object) => {
      const ctx = createExecutionContext()
      const response = await worker.fetch(
        new Request(`${origin}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain', Origin: origin, 'CF-Connecting-IP': '10.0.0.9' },
          body: JSON.stringify({ page, ...body }),
        }),
        bindings({ VITALS: dataset }),
        ctx
      )
      await waitOnExecutionContext(ctx)
      return response
    }
    const metrics = [{ name: 'LCP', value: 900, rating: 'good', id: 'v5-1' }]
    const errors = [{ kind: 'error', message: 'boom' }]

    expect((await post('/api/vitals', '/_preview/en/about', { metrics })).status).toBe(204)
    expect((await post('/api/client-errors', '/_preview/', { errors })).status).toBe(204)
    expect(points).toHaveLength(0)
    expect((await post('/api/vitals', '/en/about', { metrics })).status).toBe(204)
    expect(points).toHaveLength(1)
  })
})
