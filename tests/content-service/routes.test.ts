/**
 * Routing of the content service (content-service/src/index.ts): the product segment, JSON errors
 * for unknown routes and missing content, and page keys of page-meta-data.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { normalizePageKey } from '../../content-service/src/routes/pages'
import { call, fetchPath } from '../support/content-service'

async function expectJsonError(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status)
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
  const body = (await response.json()) as { message?: unknown }
  expect(Object.keys(body)).toEqual(['message'])
  expect(body.message).toEqual(expect.stringMatching(/\S/))
  return body.message as string
}

describe('the product segment', () => {
  it('accepts any product name', async () => {
    const response = await fetchPath('/api/another-site/navbar-data')
    expect(response.status).toBe(200)
  })

  it('is required', async () => {
    await expectJsonError(await fetchPath('/api/navbar-data'), 404)
  })
})

describe('unknown routes', () => {
  it.each([
    ['an unknown call', 'GET', '/api/erebuni/get-services-page'],
    ['a path outside /api', 'GET', '/'],
    ['a trailing segment', 'GET', '/api/erebuni/navbar-data/extra'],
    ['GET on messages', 'GET', '/api/erebuni/messages'],
    ['POST on a page', 'POST', '/api/erebuni/get-home-page'],
  ])('answers 404 JSON with a message for %s', async (_, method, path) => {
    const message = await expectJsonError(await fetchPath(path, { method }), 404)
    expect(message).toContain(path)
  })
})

describe('headers', () => {
  it('marks answers uncacheable, as the site keeps its own cache', async () => {
    expect((await call('navbar-data')).headers.get('Cache-Control')).toBe('no-store')
    expect((await call('nope')).headers.get('Cache-Control')).toBe('no-store')
  })

  it('sends no CORS headers', async () => {
    const response = await call('navbar-data', { headers: { Origin: 'https://elsewhere.example' } })
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull()
  })
})

describe('GET page-meta-data', () => {
  it('answers 404 with a message for an unknown page', async () => {
    const message = await expectJsonError(
      await call('page-meta-data?path=site&page=%2Fservices'),
      404
    )
    expect(message).toContain('/services')
  })

  it('answers 400 with a message without a page', async () => {
    await expectJsonError(await call('page-meta-data?path=site'), 400)
    await expectJsonError(await call('page-meta-data?path=site&page=%20'), 400)
  })

  it('reads "about" and "/about/" as the page key /about', async () => {
    for (const page of ['about', '%2Fabout%2F'])
      expect((await call(`page-meta-data?path=site&page=${page}`)).status).toBe(200)
    expect(normalizePageKey('/')).toBe('/')
    expect(normalizePageKey('//')).toBe('/')
    expect(normalizePageKey(' /contact-us/ ')).toBe('/contact-us')
  })
})

describe('a database without content', () => {
  it('answers 404 with a message that says to seed', async () => {
    const { payload } =
      (await env.CONTENT_DB.prepare("SELECT payload FROM pages WHERE slug = 'navbar'").first<{
        payload: string
      }>()) ?? {}
    await env.CONTENT_DB.prepare("DELETE FROM pages WHERE slug = 'navbar'").run()
    try {
      const message = await expectJsonError(await call('navbar-data'), 404)
      expect(message).toContain('content:seed')
    } finally {
      await env.CONTENT_DB.prepare("INSERT INTO pages (slug, payload) VALUES ('navbar', ?)")
        .bind(payload)
        .run()
    }
  })
})
