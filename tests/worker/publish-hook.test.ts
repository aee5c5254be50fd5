/**
 * POST /api/publish (src/routes/publish.ts): a signed call refreshes the payloads it names at once
 * and purges the pages of the changed ones; every refusal touches nothing.
 */
import { waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Bindings } from '../../src/env'
import worker from '../../src/index'
import { signatureHeaders } from '../../scripts/lib/publish-signing.mjs'
import { fakeBackend, json, samplePayloads, type Answer } from '../support/worker/fake-backend'
import { contextWithWorkersCache, recordingKv } from '../support/worker/freshness'
import { fetchPage } from '../support/worker/worker'
import { signedNow } from '../support/worker/signed-call'
import { inOneLimiterWindow } from '../support/worker/limiter-window'

const SECRET = 'publish-test-secret'
let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => backend?.restore())

let clients = 0
async function setup(answers: Record<string, Answer> = {}, overrides: Partial<Bindings> = {}) {
  backend = fakeBackend(answers)
  return recordingKv(backend.env({ PUBLISH_SECRET: SECRET, ...overrides }))
}

type CallOptions = {
  headers?: Record<string, string>
  client?: string
  sign?: { secret?: string; at?: number } | false
}

/** Calls the hook as a CMS would: signed with SECRET now, unless told otherwise. */
async function publish(bindings: Bindings, body: string, options: CallOptions = {}) {
  const signed =
    options.sign === false
      ? {}
      : options.sign?.at === undefined
        ? await signedNow(options.sign?.secret ?? SECRET, body)
        : signatureHeaders(options.sign?.secret ?? SECRET, body, Math.floor(options.sign.at / 1000))
  const { ctx, tags } = contextWithWorkersCache()
  const request = new Request('http://localhost/api/publish', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'CF-Connecting-IP': options.client ?? `2001:db8:1::${++clients}`,
      ...signed,
      ...options.headers,
    },
    body,
  })
  const response = await worker.fetch(request, bindings, ctx)
  const answer = {
    status: response.status,
    body: await response.json<Record<string, unknown>>().catch((): Record<string, unknown> => ({})),
  }
  await waitOnExecutionContext(ctx)
  return { ...answer, purged: tags() }
}

const homeKey = () => `payload:v2:${backend!.origin}:erebuni:get-home-page`

describe('POST /api/publish', () => {
  it('refreshes every payload at once and purges the pages of those that changed', async () => {
    const answers: Record<string, Answer> = {}
    const { bindings } = await setup(answers)
    await fetchPage('/en', bindings)
    answers['get-home-page'] = json({
      payload: {
        ...(samplePayloads['get-home-page'] as object),
        banner: [{ title: 'Fresh banner' }],
      },
    })
    const calls = backend!.calls.length

    const { status, body, purged } = await publish(bindings, '{}')
    expect(status).toBe(200)
    expect(backend!.calls.length - calls).toBe(9)
    expect(body.changed).toContain('payload:get-home-page')
    expect(purged).toContain('payload:get-home-page')
    expect(purged).not.toContain('payload:navbar-data')
    // The next visit has the change, wherever it was cached before.
    expect(await (await fetchPage('/en', bindings)).text()).toContain('Fresh banner')
  })

  it('refreshes only the payloads it names, and re-renders no page whose payloads did not change', async () => {
    const answers: Record<string, Answer> = {}
    const { bindings } = await setup(answers)
    await fetchPage('/en', bindings)
    await fetchPage('/en/about', bindings)
    answers['get-home-page'] = json({
      payload: {
        ...(samplePayloads['get-home-page'] as object),
        banner: [{ title: 'Named change' }],
      },
    })
    const calls = backend!.calls.length

    const { status, body, purged } = await publish(
      bindings,
      JSON.stringify({ payloads: ['get-home-page', 'get-about-page'] })
    )
    expect(status).toBe(200)
    expect(
      backend!.calls
        .slice(calls)
        .map((call) => call.url.pathname.split('/').pop())
        .sort()
    ).toEqual(['get-about-page', 'get-home-page'])
    expect(body).toMatchObject({
      refreshed: ['payload:get-home-page', 'payload:get-about-page'],
      changed: ['payload:get-home-page'],
      failed: [],
    })
    expect(purged).toEqual(['payload:get-home-page'])
    expect((await fetchPage('/en/about', bindings)).headers.get('X-Page-Cache')).toBe('hit')
    const home = await fetchPage('/en', bindings)
    expect(home.headers.get('X-Page-Cache')).toBe('miss')
    expect(await home.text()).toContain('Named change')
  })

  it('purges the pages of the named payloads without any change when asked to (purgeUnchanged), and says so', async () => {
    const { bindings } = await setup()
    await fetchPage('/en/about', bindings)

    const plain = await publish(bindings, JSON.stringify({ payloads: ['get-about-page'] }))
    expect(plain.body).toMatchObject({
      refreshed: ['payload:get-about-page'],
      changed: [],
      purged: [],
    })
    expect(plain.purged).toEqual([])

    const forced = await publish(
      bindings,
      JSON.stringify({ payloads: ['get-about-page'], purgeUnchanged: true })
    )
    expect(forced.status).toBe(200)
    expect(forced.body).toMatchObject({
      refreshed: ['payload:get-about-page'],
      changed: [],
      failed: [],
      purged: ['payload:get-about-page'],
    })
    expect(forced.purged).toEqual(['payload:get-about-page'])
  })

  it('says which tags it purged again because their content changed one to two minutes ago', async () => {
    const { bindings } = await setup()
    const first = await publish(bindings, '{}')
    // Each payload stored for the first time: changed, and purged.
    expect(first.body.changed).toEqual(first.body.refreshed)
    expect(first.body.purgedAgain).toEqual([])
    const firstStored = Date.now()
    try {
      vi.useFakeTimers({ toFake: ['Date'] })
      // A minute and a half later, nothing changed: every one purged again, and said to be.
      vi.setSystemTime(firstStored + 90_000)
      const again = await publish(bindings, '{}')
      expect(again.status).toBe(200)
      expect(again.body.changed).toEqual([])
      expect(again.body.purgedAgain).toEqual(first.body.refreshed)
      expect(again.body.purged).toEqual(again.body.purgedAgain)
      // Past two minutes: nothing changed, nothing purged.
      vi.setSystemTime(firstStored + 150_000)
      const later = await publish(bindings, '{}')
      expect(later.body).toMatchObject({ changed: [], purged: [], purgedAgain: [] })
    } finally {
      vi.useRealTimers()
    }
  })

  it('answers 400 to a purgeUnchanged that is not true or false, and refreshes nothing', async () => {
    const { bindings } = await setup()
    const calls = backend!.calls.length
    const { status, body, purged } = await publish(
      bindings,
      JSON.stringify({ purgeUnchanged: 'yes' })
    )
    expect(status).toBe(400)
    expect(body.error).toMatch(/body must be/)
    expect(backend!.calls.length).toBe(calls)
    expect(purged).toEqual([])
  })

  it('answers 502 and keeps the last good content when the backend fails', async () => {
    const answers: Record<string, Answer> = {}
    const { bindings } = await setup(answers)
    await fetchPage('/en', bindings)
    const good = await env.CONTENT_CACHE.get(homeKey())
    answers['get-home-page'] = json({ message: 'down' }, 500)
    const { status, body, purged } = await publish(
      bindings,
      JSON.stringify({ payloads: ['get-home-page'] })
    )
    expect(status).toBe(502)
    expect(body).toMatchObject({ failed: ['payload:get-home-page'], changed: [] })
    expect(purged).toEqual([])
    expect(await env.CONTENT_CACHE.get(homeKey())).toBe(good)
  })

  const refusals: [string, CallOptions | ((body: string) => Promise<CallOptions>)][] = [
    ['missing', { sign: false }],
    ['wrong', { sign: { secret: 'guessed' } }],
    ['expired', { sign: { at: Date.now() - 10 * 60_000 } }],
    ['from the future', { sign: { at: Date.now() + 10 * 60_000 } }],
    ['malformed', { headers: { 'X-Publish-Signature': 'sha256=nothex' } }],
  ]
  it.each(refusals)('answers 401 to a %s signature and touches nothing', async (_name, options) => {
    const { bindings, writes } = await setup()
    const response = await publish(bindings, '{}', options as CallOptions)
    expect(response.status).toBe(401)
    expect(backend!.calls).toHaveLength(0)
    expect(writes).toEqual([])
    expect(response.purged).toEqual([])
  })

  it('answers 401 to a replayed call and touches nothing', async () => {
    const { bindings } = await setup()
    const body = JSON.stringify({ payloads: ['navbar-data'] })
    const headers = await signedNow(SECRET, body)
    expect((await publish(bindings, body, { sign: false, headers })).status).toBe(200)
    const calls = backend!.calls.length
    const replay = await publish(bindings, body, { sign: false, headers })
    expect(replay.status).toBe(401)
    expect(replay.body.error).toBe('signature replayed')
    expect(backend!.calls).toHaveLength(calls)
  })

  it('answers 401 to a signature of another body', async () => {
    const { bindings } = await setup()
    const headers = signatureHeaders(
      SECRET,
      JSON.stringify({ payloads: ['navbar-data'] }),
      Math.floor(Date.now() / 1000)
    )
    expect((await publish(bindings, '{}', { sign: false, headers })).status).toBe(401)
    expect(backend!.calls).toHaveLength(0)
  })

  it.each([
    ['not JSON', '{"payloads": ['],
    ['an unknown payload', JSON.stringify({ payloads: ['get-secrets'] })],
    ['an empty list', JSON.stringify({ payloads: [] })],
    ['an unknown field', JSON.stringify({ everything: true })],
    ['an array', '[]'],
  ])('answers 400 to a signed body that is %s, and touches nothing', async (_name, body) => {
    const { bindings, payloadWrites } = await setup()
    const response = await publish(bindings, body)
    expect(response.status).toBe(400)
    expect(backend!.calls).toHaveLength(0)
    expect(payloadWrites()).toEqual([])
  })

  it('answers 413 to a body over 4 KB, and touches nothing', async () => {
    const { bindings, writes } = await setup()
    const response = await publish(
      bindings,
      JSON.stringify({ payloads: ['navbar-data'], pad: 'x'.repeat(5000) })
    )
    expect(response.status).toBe(413)
    expect(backend!.calls).toHaveLength(0)
    expect(writes).toEqual([])
  })

  it('answers 429 once a client goes over the rate limit', async () => {
    const { bindings } = await setup()
    // A client of its own for each run: a run that straddled the limiter's rollover is run again.
    const statuses = await inOneLimiterWindow(60, async (attempt) => {
      const answers: number[] = []
      for (let call = 0; call < 12; call++)
        answers.push(
          (await publish(bindings, '{}', { client: `2001:db8:2::${attempt}`, sign: false })).status
        )
      return answers
    })
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    expect(statuses.slice(10)).toEqual([429, 429])
  })

  it('answers 503 when no PUBLISH_SECRET is set', async () => {
    const { bindings } = await setup({}, { PUBLISH_SECRET: '' })
    expect((await publish(bindings, '{}', { sign: false })).status).toBe(503)
    expect(backend!.calls).toHaveLength(0)
  })
})
