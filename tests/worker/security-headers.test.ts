/// <reference types="vite/client" />
/// <reference path="../support/setup/env.d.ts" />
/**
 * Security headers (src/middleware/security-headers/, hono/secure-headers) on every kind of
 * response the worker sends, and the same list in public/_headers for the static files the worker
 * never sees. The policy is written out here, so a change to it is a change to a test.
 */
import { env } from 'cloudflare:workers'
import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import staticHeaders from '../../public/_headers?raw'
import { securityHeaders } from '../../src/middleware/security-headers'
import { postForm, postJson, VALID } from '../support/worker/contact'
import { fakeBackend, json } from '../support/worker/fake-backend'
import { fetchPage } from '../support/worker/worker'

const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy':
    'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
}

/** Headers hono/secure-headers sends by default that are not part of this site's policy. */
const NOT_SENT = [
  'Cross-Origin-Resource-Policy',
  'Origin-Agent-Cluster',
  'X-DNS-Prefetch-Control',
  'X-Download-Options',
  'X-Permitted-Cross-Domain-Policies',
  'X-XSS-Protection',
]

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

function expectSecurityHeaders(response: Response, label: string) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    expect(response.headers.get(name), `${label}: ${name}`).toBe(value)
  }
  for (const name of NOT_SENT) expect(response.headers.get(name), `${label}: ${name}`).toBeNull()
}

/** The directives of a Content-Security-Policy, by name. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/)
      return [name, values]
    })
  )
}

describe('the Content-Security-Policy', () => {
  const csp = directives(CONTENT_SECURITY_POLICY)

  it('is the policy the worker sends', async () => {
    backend = fakeBackend()
    const response = await fetchPage('/robots.txt', backend.env())
    expect(response.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY)
  })

  it('runs only the site’s own script files, never inline script', () => {
    expect(csp['script-src']).toEqual(["'self'"])
    expect(csp['default-src']).toEqual(["'self'"])
    expect(csp['object-src']).toEqual(["'none'"])
  })

  it('forbids framing and limits images, fonts, connections, forms and <base>', () => {
    expect(csp['frame-ancestors']).toEqual(["'none'"])
    // Every picture comes through this site's /_image route, wherever the CMS keeps it.
    expect(csp['img-src']).toEqual(["'self'", 'data:'])
    expect(csp['font-src']).toEqual(["'self'", 'data:'])
    expect(csp['connect-src']).toEqual(["'self'"])
    expect(csp['form-action']).toEqual(["'self'"])
    expect(csp['base-uri']).toEqual(["'self'"])
  })

  it.each(['/en', '/ru/about', '/enterprises', '/en/contact-us'])(
    'has nothing to block on %s: no inline script',
    async (path) => {
      backend = fakeBackend()
      const html = await (await fetchPage(path, backend.env())).text()
      const scripts = html.match(/<script\b[^>]*>/g) ?? []
      expect(scripts.length).toBeGreaterThan(0)
      for (const tag of scripts) {
        expect(tag, path).toMatch(/\bsrc="\/assets\/|type="application\/(json|ld\+json)"/)
      }
    }
  )
})

describe('security headers on every response', () => {
  it.each(['/', '/about', '/en/enterprises', '/ru/contact-us'])(
    'GET %s (rendered, then from the page cache)',
    async (path) => {
      backend = fakeBackend()
      const rendered = await fetchPage(path, backend.env())
      expect(rendered.status).toBe(200)
      expectSecurityHeaders(rendered, `${path} rendered`)
      const cached = await fetchPage(path, backend.env())
      expect(cached.headers.get('X-Page-Cache')).toBe('hit')
      expectSecurityHeaders(cached, `${path} cached`)
      const notModified = await fetchPage(path, backend.env(), {
        headers: { 'If-None-Match': cached.headers.get('ETag')! },
      })
      expect(notModified.status).toBe(304)
      expectSecurityHeaders(notModified, `${path} 304`)
    }
  )

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
    const refused = await postJson(backend.env(), VALID, {
      headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    })
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

  it('a response passed on from a service binding, whose own headers are immutable', async () => {
    const app = new Hono<{ Bindings: typeof env }>()
    app.use('*', securityHeaders())
    app.get('/proxied', (c) => c.env.CONTENT.fetch('https://content/api/erebuni/navbar-data'))
    const response = await app.request('/proxied', {}, env)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
    expectSecurityHeaders(response, 'service binding')
    expect(await response.json()).toHaveProperty('payload.home', 'Home')
  })

  it('keeps a header that a route set itself', async () => {
    const app = new Hono()
    app.use('*', securityHeaders())
    app.get('/framed', (c) => c.text('ok', 200, { 'X-Frame-Options': 'SAMEORIGIN' }))
    const response = await app.request('/framed')
    expect(response.headers.get('X-Frame-Options')).toBe('SAMEORIGIN')
    expect(response.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY)
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
