/**
 * HTTPS only (src/middleware/https-only/, docs/decisions/0016-https-only.md): a request that came
 * over plain HTTP, by its URL or by what the platform or a TLS front says, is sent to the same
 * address over HTTPS in one permanent redirect; loopback addresses reached directly stay on HTTP
 * for local development.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { fakeBackend } from '../support/worker/fake-backend'
import { fetchPage } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => backend?.restore())

function bindings() {
  backend = fakeBackend()
  return backend.env()
}

describe('plain HTTP is redirected to HTTPS', () => {
  it.each([
    ['the home page', 'http://erebuni.example.am/', 'https://erebuni.example.am/'],
    [
      'a page in a language, with its query',
      'http://erebuni.example.am/en/about?utm_source=x',
      'https://erebuni.example.am/en/about?utm_source=x',
    ],
    [
      'an unknown address',
      'http://erebuni.example.am/wp-login.php',
      'https://erebuni.example.am/wp-login.php',
    ],
    [
      'an image address',
      'http://erebuni.example.am/_image?src=%2Fdefault-banner.jpg&w=640',
      'https://erebuni.example.am/_image?src=%2Fdefault-banner.jpg&w=640',
    ],
    ['robots.txt', 'http://erebuni.example.am/robots.txt', 'https://erebuni.example.am/robots.txt'],
  ])('GET %s: 301 to the same address over HTTPS, in one hop', async (_, address, target) => {
    const response = await fetchPage(address, bindings())
    expect(response.status).toBe(301)
    expect(response.headers.get('Location')).toBe(target)
    expect(await response.text()).toBe('')
    const next = await fetchPage(target, bindings())
    expect(next.status, 'the HTTPS address is not redirected again').not.toBe(301)
  })

  it('answers HEAD like GET', async () => {
    const response = await fetchPage('http://erebuni.example.am/en', bindings(), { method: 'HEAD' })
    expect(response.status).toBe(301)
    expect(response.headers.get('Location')).toBe('https://erebuni.example.am/en')
  })

  it.each(['/api/contact', '/en/contact-us', '/api/vitals', '/api/publish'])(
    'answers a POST to %s with 308, which keeps it a POST, and handles nothing',
    async (path) => {
      const env = bindings()
      const response = await fetchPage(`http://erebuni.example.am${path}`, env, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: 'http://erebuni.example.am',
        },
        body: 'name=A&email=a%40example.am&message=Hello',
      })
      expect(response.status).toBe(308)
      expect(response.headers.get('Location')).toBe(`https://erebuni.example.am${path}`)
      expect(backend!.calls).toEqual([])
    }
  )

  it('lets browsers keep the redirect but no shared cache, which keys by path alone and would answer HTTPS with it', async () => {
    const response = await fetchPage('http://erebuni.example.am/about', bindings())
    expect(response.headers.get('Cache-Control')).toMatch(/^private\b/)
    expect(response.headers.get('Strict-Transport-Security')).toMatch(/max-age=\d+/)
  })

  it.each([
    ['CF-Visitor', { 'CF-Visitor': '{"scheme":"http"}' }],
    ['X-Forwarded-Proto', { 'X-Forwarded-Proto': 'http' }],
    ['X-Forwarded-Proto of a chain of proxies', { 'X-Forwarded-Proto': 'http, https' }],
  ])(
    'believes the platform over the URL: %s saying http is redirected, on loopback too',
    async (_, headers) => {
      for (const origin of ['https://erebuni.example.am', 'http://localhost:8787']) {
        const response = await fetchPage(`${origin}/en`, bindings(), { headers })
        expect(response.status, origin).toBe(301)
        expect(response.headers.get('Location'), origin).toBe(
          `${origin.replace(/^http:/, 'https:')}/en`
        )
      }
    }
  )

  it.each([
    ['CF-Visitor', { 'CF-Visitor': '{"scheme":"https"}' }],
    ['X-Forwarded-Proto', { 'X-Forwarded-Proto': 'https' }],
  ])(
    'serves a request a TLS front received (%s says https), though it reached the worker over http',
    async (_, headers) => {
      const response = await fetchPage('http://erebuni.example.am/en', bindings(), { headers })
      expect(response.status).toBe(200)
      expect(await response.text()).toContain('<html lang="en">')
    }
  )

  it('falls back to the URL when CF-Visitor is not JSON or names no scheme', async () => {
    for (const visitor of ['not json', '{"scheme":"gopher"}', 'null']) {
      expect(
        (
          await fetchPage('http://erebuni.example.am/en', bindings(), {
            headers: { 'CF-Visitor': visitor },
          })
        ).status,
        visitor
      ).toBe(301)
      expect(
        (
          await fetchPage('https://erebuni.example.am/en', bindings(), {
            headers: { 'CF-Visitor': visitor },
          })
        ).status,
        visitor
      ).toBe(200)
    }
  })
})

describe('local development stays on HTTP', () => {
  it.each(['http://localhost:8787', 'http://127.0.0.1:8799', 'http://[::1]:8787'])(
    'serves %s over HTTP',
    async (origin) => {
      const response = await fetchPage(`${origin}/en/about`, bindings())
      expect(response.status).toBe(200)
      expect(response.headers.get('Location')).toBeNull()
    }
  )

  it('redirects a loopback-looking name that is not loopback', async () => {
    const response = await fetchPage('http://localhost.erebuni.example.am/', bindings())
    expect(response.status).toBe(301)
  })
})
