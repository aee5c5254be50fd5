/**
 * The freshness contract through the whole site (docs/decisions/0004-content-freshness.md): how
 * soon a content change in the backend reaches a page, with and without the scheduled refresh, and
 * what a backend outage does. Entries are aged by rewriting their time in KV, as a clock moved
 * forward would see them; each visit starts as a new isolate would (nothing remembered in memory).
 */
import { createScheduledController, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HEARTBEAT_KEY } from '../../src/freshness/refresh-schedule'
import type { Bindings } from '../../src/env'
import { fakeBackend, json, samplePayloads, type Answer } from '../support/worker/fake-backend'
import { contextWithWorkersCache, recordingKv } from '../support/worker/freshness'
import { fetchPage, newIsolate } from '../support/worker/worker'

const TTL_SECONDS = 300
let backend: ReturnType<typeof fakeBackend> | undefined
beforeEach(async () => {
  newIsolate()
  await env.CONTENT_CACHE.delete(HEARTBEAT_KEY)
})
afterEach(() => backend?.restore())

function setup() {
  const answers: Record<string, Answer> = {}
  backend = fakeBackend(answers)
  const kv = recordingKv(backend.env({ CONTENT_TTL: String(TTL_SECONDS) }))
  return {
    ...kv,
    /** The backend's home page now has this banner title. */
    editBanner: (title: string) => {
      answers['get-home-page'] = json({
        payload: { ...(samplePayloads['get-home-page'] as object), banner: [{ title }] },
      })
    },
    failEverything: () => {
      for (const endpoint of Object.keys(samplePayloads))
        answers[endpoint] = json({ message: 'down' }, 500)
    },
    recover: () => {
      for (const endpoint of Object.keys(answers)) delete answers[endpoint]
    },
  }
}

/** Moves every payload entry of this backend `seconds` into the past. */
async function agePayloads(seconds: number) {
  const { keys } = await env.CONTENT_CACHE.list({ prefix: `payload:v2:${backend!.origin}:` })
  for (const { name } of keys) {
    const entry = await env.CONTENT_CACHE.get<{ storedAt: number }>(name, 'json')
    await env.CONTENT_CACHE.put(
      name,
      JSON.stringify({ ...entry, storedAt: entry!.storedAt - seconds * 1000 })
    )
  }
}

/** A visit as from a fresh isolate: nothing of earlier visits in memory. */
async function visit(path: string, bindings: Bindings) {
  newIsolate()
  const response = await fetchPage(path, bindings)
  return {
    status: response.status,
    page: response.headers.get('X-Page-Cache'),
    html: await response.text(),
  }
}

/**
 * A page without its images' placeholders: they settle in the background, each when the transform
 * slots allow (docs/decisions/0015-images-in-pages.md), so whether one is in a given render
 * depends on the machine, not on the content.
 */
function withoutPlaceholders(html: string): string {
  return html.replace(
    / style="background:center \/ cover no-repeat url\(data:image\/[^)"]*\)"/g,
    ''
  )
}

async function runCron(bindings: Bindings) {
  const { default: worker } = await import('../../src/index')
  const { ctx } = contextWithWorkersCache()
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now() }), bindings, ctx)
  await waitOnExecutionContext(ctx)
}

describe('without the scheduled refresh (wrangler dev, npm start)', () => {
  it('serves fresh content from KV without calling the backend', async () => {
    const { bindings, editBanner } = setup()
    await visit('/en', bindings)
    const calls = backend!.calls.length
    editBanner('Changed too early')
    await agePayloads(TTL_SECONDS - 5)
    expect((await visit('/en', bindings)).html).not.toContain('Changed too early')
    expect(backend!.calls).toHaveLength(calls)
  })

  it.each([
    ['just past CONTENT_TTL', TTL_SECONDS + 1],
    ['a quiet page after a day without visits', 24 * 60 * 60],
  ])(
    'shows a backend change within one more visit once the payloads are %s',
    async (_name, age) => {
      const { bindings, editBanner } = setup()
      expect((await visit('/en', bindings)).html).toContain('Building Yerevan')
      editBanner('Spring offer')
      await agePayloads(age)
      const first = await visit('/en', bindings)
      expect(first.status).toBe(200)
      const second = await visit('/en', bindings)
      expect(first.html.includes('Spring offer') || second.html.includes('Spring offer')).toBe(true)
      expect(second.html).toContain('Spring offer')
    }
  )
})

describe('with the scheduled refresh running', () => {
  it('never calls the backend or writes KV from a visit, however old the payloads; the next run brings the change', async () => {
    const { bindings, editBanner, payloadWrites } = setup()
    await visit('/en', bindings)
    await runCron(bindings)
    const calls = backend!.calls.length
    const writes = payloadWrites().length
    editBanner('From the cron')
    await agePayloads(TTL_SECONDS + 1)
    for (let i = 0; i < 3; i++)
      expect((await visit('/en', bindings)).html).not.toContain('From the cron')
    expect(backend!.calls).toHaveLength(calls)
    expect(payloadWrites()).toHaveLength(writes)

    await runCron(bindings)
    expect((await visit('/en', bindings)).html).toContain('From the cron')
  })
})

describe('a backend outage', () => {
  it('keeps serving every page from the last good content, writes nothing, and recovers by itself', async () => {
    const { bindings, failEverything, recover, editBanner, payloadWrites } = setup()
    const pages = ['/', '/en/about', '/ru/enterprises', '/en/contact-us']
    const before = new Map<string, string>()
    for (const path of pages)
      before.set(path, withoutPlaceholders((await visit(path, bindings)).html))
    failEverything()
    await agePayloads(7 * 24 * 60 * 60)
    const writes = payloadWrites().length
    for (const path of pages) {
      const during = await visit(path, bindings)
      expect(during.status, path).toBe(200)
      expect(withoutPlaceholders(during.html), path).toBe(before.get(path))
    }
    expect(payloadWrites()).toHaveLength(writes)

    recover()
    editBanner('Back online')
    await visit('/en', bindings)
    expect((await visit('/en', bindings)).html).toContain('Back online')
  })
})
