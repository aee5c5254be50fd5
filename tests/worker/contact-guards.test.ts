/**
 * What the contact routes refuse before the backend is ever called: cross-site requests (403),
 * wrong content types (415), big bodies (413), unreadable bodies (400) and too many messages from
 * one client (429 with Retry-After).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES, RATE_LIMIT_PERIOD_SECONDS } from '../../src/routes/contact'
import { fakeBackend } from '../support/worker/fake-backend'
import { newClient, postForm, postJson, VALID } from '../support/worker/contact'
import { inOneLimiterWindow } from '../support/worker/limiter-window'
import { fetchPage } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend>
afterEach(() => backend?.restore())

const ROUTES = [
  {
    route: 'POST /api/contact',
    post: (headers: Record<string, string>) => postJson(backend.env(), VALID, { headers }),
  },
  {
    route: 'POST /en/contact-us',
    post: (headers: Record<string, string>) =>
      postForm('/en/contact-us', backend.env(), VALID, { headers }),
  },
] as const

describe.each(ROUTES)('$route', ({ post }) => {
  it.each([
    ['another origin', { Origin: 'https://evil.example' }],
    ['an opaque origin', { Origin: 'null' }],
    ['the same host on another port', { Origin: 'http://localhost:8080' }],
    ['a cross-site fetch', { 'Sec-Fetch-Site': 'cross-site' }],
    ['a same-site fetch from a sibling subdomain', { 'Sec-Fetch-Site': 'same-site' }],
  ])('refuses %s with 403', async (_, headers) => {
    backend = fakeBackend()
    const response = await post(headers)
    expect(response.status).toBe(403)
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(backend.calls).toHaveLength(0)
  })
})

describe('same origin', () => {
  it.each(ROUTES)(
    '$route refuses a request with neither Origin nor Sec-Fetch-Site with 403 (every browser sends Origin with a POST)',
    async ({ route }) => {
      backend = fakeBackend()
      const json = route === 'POST /api/contact'
      const response = await fetchPage(json ? '/api/contact' : '/en/contact-us', backend.env(), {
        method: 'POST',
        headers: {
          'Content-Type': json ? 'application/json' : 'application/x-www-form-urlencoded',
          'CF-Connecting-IP': newClient(),
        },
        body: json ? JSON.stringify(VALID) : new URLSearchParams(VALID).toString(),
      })
      expect(response.status).toBe(403)
      expect(backend.calls).toHaveLength(0)
    }
  )
})

describe('content types', () => {
  it.each([
    ['/api/contact', 'text/plain'],
    ['/api/contact', 'application/x-www-form-urlencoded'],
    ['/api/contact', ''],
    ['/en/contact-us', 'application/json'],
    ['/en/contact-us', 'multipart/form-data; boundary=x'],
    ['/contact-us', 'text/plain'],
  ])('%s refuses %j with 415', async (path, type) => {
    backend = fakeBackend()
    const headers: Record<string, string> = {
      Origin: 'http://localhost',
      'CF-Connecting-IP': newClient(),
    }
    if (type) headers['Content-Type'] = type
    const response = await fetchPage(path, backend.env(), {
      method: 'POST',
      headers,
      body: 'name=Anna',
    })
    expect(response.status).toBe(415)
    expect(backend.calls).toHaveLength(0)
  })

  it('accepts a charset parameter', async () => {
    backend = fakeBackend()
    const response = await postJson(backend.env(), VALID, {
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    })
    expect(response.status).toBe(502)
    expect(backend.callsTo('messages')).toHaveLength(1)
  })
})

describe('body size', () => {
  const big = { ...VALID, comments: 'x'.repeat(MAX_BODY_BYTES) }

  it('refuses a body over the limit with 413, by its Content-Length', async () => {
    backend = fakeBackend()
    expect((await postJson(backend.env(), big)).status).toBe(413)
    expect((await postForm('/ru/contact-us', backend.env(), big)).status).toBe(413)
    expect(backend.calls).toHaveLength(0)
  })

  it('refuses a streamed body over the limit with 413', async () => {
    backend = fakeBackend()
    const bytes = new TextEncoder().encode(JSON.stringify(big))
    const stream = new ReadableStream({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 1024)
          controller.enqueue(bytes.slice(at, at + 1024))
        controller.close()
      },
    })
    const response = await fetchPage('/api/contact', backend.env(), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: 'http://localhost',
        'CF-Connecting-IP': newClient(),
      },
      body: stream,
    })
    expect(response.status).toBe(413)
    expect(backend.calls).toHaveLength(0)
  })

  it('takes the longest valid message in a three-byte script', async () => {
    backend = fakeBackend()
    const response = await postForm('/contact-us', backend.env(), {
      name: 'ꯀ'.repeat(20),
      email: VALID.email,
      comments: '한'.repeat(500),
    })
    expect(response.status).not.toBe(413)
  })
})

describe('unreadable bodies', () => {
  it('answers malformed JSON with 400', async () => {
    backend = fakeBackend()
    const response = await postJson(backend.env(), '{"name": "Anna"')
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ ok: false })
    expect(backend.calls).toHaveLength(0)
  })

  it('reads JSON that is not an object as an empty form (422)', async () => {
    backend = fakeBackend()
    const response = await postJson(backend.env(), '"Anna"')
    expect(response.status).toBe(422)
    expect(backend.calls).toHaveLength(0)
  })
})

describe('rate limit', () => {
  it('allows 5 messages a minute per client, then answers 429 with Retry-After', async () => {
    // A fresh client and backend for each run: a run that straddled the limiter's rollover is run again.
    const { statuses, refused } = await inOneLimiterWindow(RATE_LIMIT_PERIOD_SECONDS, async () => {
      backend = fakeBackend()
      const client = newClient()
      const statuses: number[] = []
      for (let i = 0; i < 6; i += 1)
        statuses.push((await postJson(backend.env(), VALID, { client })).status)
      return { statuses, refused: await postJson(backend.env(), VALID, { client }) }
    })
    expect(statuses).toEqual([502, 502, 502, 502, 502, 429])
    expect(backend.callsTo('messages')).toHaveLength(5)

    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toBe(String(RATE_LIMIT_PERIOD_SECONDS))
    expect(refused.headers.get('Cache-Control')).toBe('no-store')
    expect(await refused.json()).toEqual({ ok: false })

    // Another client is not affected.
    expect((await postJson(backend.env(), VALID)).status).toBe(502)
    expect(backend.callsTo('messages')).toHaveLength(6)
  })

  it('counts the plain form too, and shows the visitor the reason with the input kept', async () => {
    const response = await inOneLimiterWindow(RATE_LIMIT_PERIOD_SECONDS, async () => {
      backend = fakeBackend()
      const client = newClient()
      for (let i = 0; i < 5; i += 1) await postJson(backend.env(), VALID, { client })
      return postForm('/en/contact-us', backend.env(), VALID, { client })
    })
    expect(response.status).toBe(429)
    expect(response.headers.get('Retry-After')).toBe(String(RATE_LIMIT_PERIOD_SECONDS))
    const html = await response.text()
    expect(html).toContain('Too many messages in a short time')
    expect(html).toContain(`value="${VALID.name}"`)
    expect(backend.callsTo('messages')).toHaveLength(5)
  })

  it('does not count refused or invalid requests', async () => {
    backend = fakeBackend()
    const client = newClient()
    for (let i = 0; i < 6; i += 1)
      await postJson(backend.env(), { ...VALID, email: 'nope' }, { client })
    expect((await postJson(backend.env(), VALID, { client })).status).toBe(502)
  })
})
