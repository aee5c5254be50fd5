/// <reference types="vite/client" />
/**
 * Security headers (src/middleware/security-headers/) on every kind of response the worker sends,
 * and the same list in public/_headers for the static files the worker never sees.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import staticHeaders from '../../public/_headers?raw'
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../src/middleware/security-headers'
import { postForm, postJson, VALID } from './support/contact'
import { fakeBackend, json } from './support/fake-backend'
import { fetchPage } from './support/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

function expectSecurityHeaders(response: Response, label: string) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    expect(response.headers.get(name), `${label}: ${name}`).toBe(value)
  }
}

/** The directives of a Content-Security-Policy, by name. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/)
      return [name, values]
    }),
  )
}

describe('the Content-Security-Policy', () => {
  const csp = directives(CONTENT_SECURITY_POLICY)

  it('runs only the site’s own script files, never inline script', () => {
    expect(csp['script-src']).toEqual(["'self'"])
    expect(csp['default-src']).toEqual(["'self'"])
    expect(csp['object-src']).toEqual(["'none'"])
  })

  it('forbids framing and limits images, fonts, connections, forms and <base>', () => {
    expect(csp['frame-ancestors']).toEqual(["'none'"])
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'https:'])
    expect(csp['font-src']).toEqual(["'self'", 'data:'])
    expect(csp['connect-src']).toEqual(["'self'"])
    expect(csp['form-action']).toEqual(["'self'"])
    expect(csp['base-uri']).toEqual(["'self'"])
  })

  it.each(['/en', '/ru/about', '/enterprises', '/en/contact-us'])('has nothing to block on %s: no inline script', async (path) => {
    backend = fakeBackend()
    const html = await (await fetchPage(path, backend.env())).text()
    const scripts = html.match(/<script\b[^>]*>/g) ?? []
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) {
      expect(tag, path).toMatch(/\bsrc="\/assets\/|type="application\/(json|ld\+json)"/)
    }
  })
})

describe('security headers on every response', () => {
  it.each(['/', '/about', '/en/enterprises', '/ru/contact-us'])('GET %s (rendered, then from the page cache)', async (path) => {
    backend = fakeBackend()
    const rendered = await fetchPage(path, backend.env())
    expect(rendered.status).toBe(200)
    expectSecurityHeaders(rendered, `${path} rendered`)
    const cached = await fetchPage(path, backend.env())
    expect(cached.headers.get('X-Page-Cache')).toBe('hit')
    expectSecurityHeaders(cached, `${path} cached`)
    const notModified = await fetchPage(path, backend.env(), { headers: { 'If-None-Match': cached.headers.get('ETag')! } })
    expect(notModified.status).toBe(304)
    expectSecurityHeaders(notModified, `${path} 304`)
  })

  it.each([
    ['/hy/about', 301],
    ['/fr', 302],
    ['/en/about/', 301],
    ['/services', 302],
  ])('the redirect from %s', async (path, status) => {
    backend = fakeBackend()
    const response = await fetchPage(path, backend.env(), { redirect: 'manual' })
    expect(response.status).toBe(status)
    expectSecurityHeaders(response, path)
  })

  it('the 404 page', async () => {
    backend = fakeBackend()
    const response = await fetchPage('/en/nope', backend.env())
    expect(response.status).toBe(404)
    expectSecurityHeaders(response, '404')
  })

  it('the 503 page while the backend is down', async () => {
    backend = fakeBackend({ 'navbar-data': json({ message: 'down' }, 500) })
    const response = await fetchPage('/en', backend.env())
    expect(response.status).toBe(503)
    expectSecurityHeaders(response, '503')
  })

  it("the 500 page ('Unexpected Application Error!')", async () => {
    backend = fakeBackend()
    vi.spyOn(Date.prototype, 'getUTCFullYear').mockImplementation(() => {
      throw new Error('boom')
    })
    const response = await fetchPage('/en', backend.env())
    expect(response.status).toBe(500)
    expectSecurityHeaders(response, '500')
  })

  it('the contact POST routes, accepted and refused', async () => {
    backend = fakeBackend({ messages: json({ ok: true }) })
    const accepted = await postJson(backend.env(), VALID)
    expect(accepted.status).toBe(200)
    expectSecurityHeaders(accepted, 'POST /api/contact')
    const refused = await postJson(backend.env(), VALID, { headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } })
    expect(refused.status).toBe(403)
    expectSecurityHeaders(refused, 'POST /api/contact 403')
    const form = await postForm('/en/contact-us', backend.env(), VALID)
    expect(form.status).toBe(303)
    expectSecurityHeaders(form, 'POST /en/contact-us')
  })

  it.each(['/sitemap.xml', '/robots.txt'])('%s', async (path) => {
    backend = fakeBackend()
    const response = await fetchPage(path, backend.env())
    expect(response.status).toBe(200)
    expectSecurityHeaders(response, path)
  })
})

describe('public/_headers', () => {
  /** The header lines of the rule for one path pattern. */
  function rule(pattern: string): Record<string, string> {
    const lines = staticHeaders.split('\n')
    const start = lines.findIndex((line) => line.trim() === pattern)
    expect(start, `a ${pattern} rule`).toBeGreaterThan(-1)
    const headers: Record<string, string> = {}
    for (const line of lines.slice(start + 1)) {
      if (!/^\s+\S/.test(line)) break
      const match = /^\s+([\w-]+):\s*(.*)$/.exec(line)
      if (match) headers[match[1]!] = match[2]!.trim()
    }
    return headers
  }

  it('gives every static file the same security headers as the worker', () => {
    expect(rule('/*')).toEqual(SECURITY_HEADERS)
  })

  it('makes the hashed bundle immutable for a year', () => {
    expect(rule('/assets/*')['Cache-Control']).toBe('public, max-age=31536000, immutable')
  })
})
