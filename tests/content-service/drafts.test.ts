/**
 * Editors' drafts (content-service/src/routes/drafts.ts): written and published with the editors'
 * token only, read in place of the published payload with that token only; publishing calls the
 * site's publish hook, signed.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { call, type Json } from '../support/content-service'

const EDITOR = { Authorization: `Bearer ${(env as { EDITOR_TOKEN: string }).EDITOR_TOKEN}` }
const DRAFT = { firstBanner: { titleBanner: 'A draft about us' } }

afterEach(() => {
  vi.restoreAllMocks()
})

async function titleOf(headers: Record<string, string> = {}): Promise<unknown> {
  const response = await call('get-about-page', { headers })
  expect(response.status).toBe(200)
  const { payload } = (await response.json()) as { payload: Json }
  return (payload.firstBanner as Json).titleBanner
}

function putDraft(
  body: string,
  headers: Record<string, string> = EDITOR,
  endpoint = 'get-about-page'
) {
  return call(`drafts/${endpoint}`, { method: 'PUT', headers, body })
}

describe('PUT drafts/<endpoint>', () => {
  it('stores a draft that only reads with the editors\u2019 token see', async () => {
    const published = await titleOf()
    const response = await putDraft(JSON.stringify(DRAFT))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ payload: { draft: 'get-about-page' } })

    expect(await titleOf(EDITOR)).toBe('A draft about us')
    expect(await titleOf({ Authorization: (env as { EDITOR_TOKEN: string }).EDITOR_TOKEN })).toBe(
      'A draft about us'
    )
    expect(await titleOf()).toBe(published)
    expect(await titleOf({ Authorization: 'Bearer another-token' })).toBe(published)
  })

  it('refuses a write without the token or with another one: 401, nothing stored', async () => {
    const published = await (await call('get-home-page')).json()
    for (const headers of [{}, { Authorization: 'Bearer another-token' }]) {
      const response = await putDraft(JSON.stringify(DRAFT), headers, 'get-home-page')
      expect(response.status).toBe(401)
      expect(((await response.json()) as Json).message).toMatch(/token/)
    }
    expect(await (await call('get-home-page', { headers: EDITOR })).json()).toEqual(published)
  })

  it('refuses a body that is not a JSON object with 400, and keeps the earlier draft', async () => {
    await putDraft(JSON.stringify(DRAFT))
    for (const body of ['{"firstBanner":', '[1, 2]', 'null', '"text"']) {
      const response = await putDraft(body)
      expect(response.status, body).toBe(400)
      expect(((await response.json()) as Json).message).toMatch(/JSON/)
    }
    expect(await titleOf(EDITOR)).toBe('A draft about us')
  })

  it('refuses an endpoint that is not a page call with 404', async () => {
    const response = await putDraft(JSON.stringify(DRAFT), EDITOR, 'messages')
    expect(response.status).toBe(404)
  })

  it('refuses a body over the limit with 413', async () => {
    const response = await putDraft(JSON.stringify({ text: 'x'.repeat(300 * 1024) }))
    expect(response.status).toBe(413)
  })
})

describe('POST drafts/<endpoint>/publish', () => {
  it('makes the draft what everyone reads, and calls the site\u2019s publish hook signed', async () => {
    const hook = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => Response.json({ refreshed: ['payload:get-about-page'] }))
    await putDraft(JSON.stringify({ firstBanner: { titleBanner: 'Published from a draft' } }))

    const response = await call('drafts/get-about-page/publish', {
      method: 'POST',
      headers: EDITOR,
    })

    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      payload: {
        published: 'get-about-page',
        hook: { status: 200, body: { refreshed: ['payload:get-about-page'] } },
      },
    })
    expect(await titleOf()).toBe('Published from a draft')
    expect(hook).toHaveBeenCalledTimes(1)
    const request = new Request(...(hook.mock.calls[0] as [RequestInfo, RequestInit]))
    expect(request.url).toBe('http://localhost:8787/api/publish')
    expect(await request.text()).toBe('{"payloads":["get-about-page"]}')
    expect(request.headers.get('X-Publish-Signature')).toMatch(/^sha256=[0-9a-f]{64}$/)
    expect(request.headers.get('X-Publish-Timestamp')).toMatch(/^\d+$/)
  })

  it('answers 404 when there is no draft, and 401 without the token', async () => {
    expect(
      (await call('drafts/navbar-data/publish', { method: 'POST', headers: EDITOR })).status
    ).toBe(404)
    expect((await call('drafts/navbar-data/publish', { method: 'POST' })).status).toBe(401)
  })
})
