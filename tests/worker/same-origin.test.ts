/**
 * The same-origin guard (src/middleware/same-origin/) next to Hono's own `hono/csrf`, request by
 * request: why the site keeps its guard (docs/decisions/0002-page-cache.md, "Security headers").
 * If a Hono upgrade makes `csrf()` refuse what only the guard refuses today, the last tests here
 * fail: then the guard can go. The contact and telemetry tests prove the guard on the real routes.
 */
import { Hono } from 'hono'
import { csrf } from 'hono/csrf'
import { describe, expect, it } from 'vitest'
import { sameOrigin } from '../../src/middleware/same-origin'

const SITE = 'https://www.erebuni.example'
const FORM = 'application/x-www-form-urlencoded'
const JSON_TYPE = 'application/json'

function guarded(guard: 'same-origin' | 'hono/csrf'): Hono {
  const app = new Hono()
  app.use('*', guard === 'same-origin' ? sameOrigin() : csrf())
  app.post('/api/contact', (c) => c.text('accepted'))
  // hono/csrf refuses by throwing an HTTPException, which carries its own 403 answer.
  app.onError((error, c) =>
    'getResponse' in error && typeof error.getResponse === 'function'
      ? error.getResponse()
      : c.text('error', 500)
  )
  return app
}

async function statusOf(
  guard: 'same-origin' | 'hono/csrf',
  contentType: string,
  headers: Record<string, string>
): Promise<number> {
  const response = await guarded(guard).request(`${SITE}/api/contact`, {
    method: 'POST',
    headers: { 'Content-Type': contentType, ...headers },
    body: contentType === JSON_TYPE ? '{"name":"Anna"}' : 'name=Anna',
  })
  return response.status
}

const SAME_ORIGIN = [
  ['a browser on this site', { Origin: SITE, 'Sec-Fetch-Site': 'same-origin' }],
  ['a browser that sends Origin only', { Origin: SITE }],
  ['a browser that sends Sec-Fetch-Site only', { 'Sec-Fetch-Site': 'same-origin' }],
] as const

const CROSS_SITE = [
  ['another site', { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }],
  [
    'a sibling subdomain',
    { Origin: 'https://shop.erebuni.example', 'Sec-Fetch-Site': 'same-site' },
  ],
  [
    'an opaque origin (sandboxed frame, cross-site redirect)',
    { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' },
  ],
  ['this host over plain http', { Origin: 'http://www.erebuni.example' }],
] as const

describe('what the guard and hono/csrf agree on', () => {
  it.each(SAME_ORIGIN)('both let through a form post from %s', async (_, headers) => {
    expect(await statusOf('same-origin', FORM, headers)).toBe(200)
    expect(await statusOf('hono/csrf', FORM, headers)).toBe(200)
  })

  it.each(CROSS_SITE)('both refuse a form post from %s', async (_, headers) => {
    expect(await statusOf('same-origin', FORM, headers)).toBe(403)
    expect(await statusOf('hono/csrf', FORM, headers)).toBe(403)
  })

  it('both refuse a form post with neither Origin nor Sec-Fetch-Site', async () => {
    expect(await statusOf('same-origin', FORM, {})).toBe(403)
    expect(await statusOf('hono/csrf', FORM, {})).toBe(403)
  })

  it.each(['text/plain;charset=UTF-8', 'multipart/form-data; boundary=x'])(
    'both refuse a cross-site %s post (a beacon, a file form)',
    async (type) => {
      const headers = { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }
      expect(await statusOf('same-origin', type, headers)).toBe(403)
      expect(await statusOf('hono/csrf', type, headers)).toBe(403)
    }
  )
})

describe('what only the guard refuses', () => {
  it.each(CROSS_SITE)(
    'a JSON post from %s: hono/csrf never checks application/json',
    async (_, headers) => {
      expect(await statusOf('same-origin', JSON_TYPE, headers)).toBe(403)
      expect(await statusOf('hono/csrf', JSON_TYPE, headers)).toBe(200)
    }
  )

  it('a post whose Origin is this site but whose Sec-Fetch-Site says cross-site: hono/csrf needs only one to agree', async () => {
    const headers = { Origin: SITE, 'Sec-Fetch-Site': 'cross-site' }
    expect(await statusOf('same-origin', FORM, headers)).toBe(403)
    expect(await statusOf('hono/csrf', FORM, headers)).toBe(200)
  })
})
