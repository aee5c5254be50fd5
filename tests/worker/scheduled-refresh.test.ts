/**
 * The Cron Trigger's handler (src/scheduled.ts -> src/freshness/refresh.ts) in the Workers runtime:
 * which payloads it loads, what it writes to KV, what it purges through the Workers Cache seam, and
 * that a failing backend leaves the last good content in place.
 */
import { createScheduledController, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { onPayloadsChanged, type PayloadsChangedListener } from '../../src/freshness/refresh'
import { HEARTBEAT_KEY } from '../../src/freshness/refresh-schedule'
import type { Bindings } from '../../src/env'
import { placeholderKey } from '../../src/images/placeholders'
import worker from '../../src/index'
import { fakeBackend, json, samplePayloads, type Answer } from '../support/worker/fake-backend'
import { contextWithWorkersCache, recordingKv } from '../support/worker/freshness'
import { fakeSentry, SENTRY_DSN } from '../support/worker/fake-sentry'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => backend?.restore())

const ENDPOINTS = [
  'get-home-page',
  'get-about-page',
  'get-enterprises-page',
  'contact-us',
  'navbar-data',
  'page-meta-data',
]
const PAGES = ['/', '/about', '/enterprises', '/contact-us']
const TTL_SECONDS = 300

/** Runs the scheduled handler as the Cron Trigger would at `at` (epoch ms). */
async function runCron(bindings: Bindings, at = Date.now(), options: { fail?: boolean } = {}) {
  const { ctx, tags } = contextWithWorkersCache(options)
  await worker.scheduled(
    createScheduledController({ scheduledTime: at, cron: '* * * * *' }),
    bindings,
    ctx
  )
  await waitOnExecutionContext(ctx)
  return { purgedTags: tags() }
}

function setup(answers: Record<string, Answer> = {}) {
  backend = fakeBackend(answers)
  return recordingKv(backend.env({ CONTENT_TTL: String(TTL_SECONDS) }))
}

/** A start time ahead of the wall clock, so that each run's clock is exactly its scheduled time. */
const future = () => Date.now() + 1_000_000_000

const callsPerEndpoint = () =>
  Object.fromEntries(ENDPOINTS.map((endpoint) => [endpoint, backend!.callsTo(endpoint).length]))

describe('the scheduled refresh', () => {
  it('loads every payload once into empty KV: one backend call and one KV write per payload', async () => {
    const { bindings, payloadWrites } = setup()
    await runCron(bindings)
    expect(callsPerEndpoint()).toEqual({
      ...Object.fromEntries(ENDPOINTS.map((e) => [e, 1])),
      'page-meta-data': PAGES.length,
    })
    const writes = payloadWrites()
    expect(writes).toHaveLength(5 + PAGES.length)
    expect(new Set(writes).size).toBe(writes.length)
  })

  it('says it is running: the heartbeat that tells requests not to refresh payloads themselves', async () => {
    const { bindings } = setup()
    const at = Date.now()
    await runCron(bindings, at)
    expect(Number(await env.CONTENT_CACHE.get(HEARTBEAT_KEY))).toBeGreaterThanOrEqual(at)
  })

  it('leaves fresh payloads alone: no backend call, no KV write', async () => {
    const { bindings, payloadWrites } = setup()
    const start = Date.now()
    await runCron(bindings, start)
    const calls = backend!.calls.length
    const writes = payloadWrites().length
    await runCron(bindings, start + 60_000)
    await runCron(bindings, start + 120_000)
    expect(backend!.calls).toHaveLength(calls)
    expect(payloadWrites()).toHaveLength(writes)
  })

  it('refreshes each payload once per CONTENT_TTL: in the last run before it would be past the TTL', async () => {
    const { bindings, payloadWrites } = setup()
    const start = future()
    await runCron(bindings, start)
    const perRun: number[] = []
    for (let minute = 1; minute <= 10; minute++) {
      const before = backend!.calls.length
      await runCron(bindings, start + minute * 60_000)
      perRun.push(backend!.calls.length - before)
    }
    // TTL 300 s: due in the run at minute 5 (it would be 360 s old at minute 6), then at minute 10.
    expect(perRun).toEqual([0, 0, 0, 0, 9, 0, 0, 0, 0, 9])
    expect(payloadWrites()).toHaveLength(27)
  })

  it('writes nothing when the backend fails, so the last good content stays', async () => {
    const answers: Record<string, Answer> = {}
    const { bindings, payloadWrites } = setup(answers)
    const start = future()
    await runCron(bindings, start)
    // The second run repeats the first run's purge (see the next test).
    await runCron(bindings, start + 60_000)
    const key = `payload:v2:${backend!.origin}:erebuni:get-home-page`
    const good = await env.CONTENT_CACHE.get(key)
    const writes = payloadWrites().length
    for (const endpoint of ENDPOINTS) answers[endpoint] = json({ message: 'down' }, 500)
    const { purgedTags } = await runCron(bindings, start + 3_600_000)
    expect(backend!.callsTo('get-home-page')).toHaveLength(2)
    expect(payloadWrites()).toHaveLength(writes)
    expect(await env.CONTENT_CACHE.get(key)).toBe(good)
    expect(purgedTags).toEqual([])
  })

  it('purges the pages of changed payloads only, and purges them again once KV has reached every data centre', async () => {
    const answers: Record<string, Answer> = {}
    const { bindings } = setup(answers)
    const start = future()
    const first = await runCron(bindings, start)
    expect(first.purgedTags).toHaveLength(5 + PAGES.length)
    expect((await runCron(bindings, start + 60_000)).purgedTags).toEqual(first.purgedTags)
    expect((await runCron(bindings, start + 120_000)).purgedTags).toEqual([])

    // Everything is due again; only the home page changed.
    answers['get-home-page'] = json({
      payload: { ...(samplePayloads['get-home-page'] as object), servicesTitle: 'New services' },
    })
    const second = await runCron(bindings, start + TTL_SECONDS * 1000)
    expect(second.purgedTags).toEqual(['payload:get-home-page'])
    // KV takes up to a minute to reach every data centre: the run a minute later purges the same pages again.
    const third = await runCron(bindings, start + TTL_SECONDS * 1000 + 60_000)
    expect(third.purgedTags).toEqual(['payload:get-home-page'])
    const fourth = await runCron(bindings, start + TTL_SECONDS * 1000 + 120_000)
    expect(fourth.purgedTags).toEqual([])
  })

  it('tells onPayloadsChanged listeners which payloads changed, after storing them', async () => {
    const answers: Record<string, Answer> = {}
    const { bindings } = setup(answers)
    const start = future()
    await runCron(bindings, start)
    const heard: string[][] = []
    const listener: PayloadsChangedListener = async (_env, changed) => {
      heard.push(changed.map((source) => source.endpoint))
      expect(await env.CONTENT_CACHE.get(changed[0]!.key)).toContain('Listened')
    }
    onPayloadsChanged.push(listener)
    try {
      answers['navbar-data'] = json({ payload: { home: 'Listened' } })
      await runCron(bindings, start + TTL_SECONDS * 1000)
      await runCron(bindings, start + 2 * TTL_SECONDS * 1000)
    } finally {
      onPayloadsChanged.splice(onPayloadsChanged.indexOf(listener), 1)
    }
    expect(heard).toEqual([['navbar-data']])
  })

  it('reports each payload the backend failed to deliver to Sentry, tagged with its key', async () => {
    const sentry = fakeSentry()
    try {
      const answers: Record<string, Answer> = { 'navbar-data': json({ message: 'down' }, 500) }
      const { bindings } = setup(answers)
      await runCron({ ...bindings, SENTRY_DSN }, future())
      const failed = sentry.events.filter((event) => event.tags?.route === 'scheduled')
      expect(failed).toHaveLength(1)
      expect(failed[0]!.tags).toMatchObject({
        kind: 'backend',
        backend_key: expect.stringContaining('navbar-data'),
      })
    } finally {
      // In the reverse order of installing: the fake backend passes other origins on to the fake Sentry.
      backend?.restore()
      backend = undefined
      sentry.restore()
    }
  })

  it("computes the placeholders of a changed payload's images, so the pages rendered next are complete", async () => {
    const photo = '/images/missions/community.jpg'
    await env.CONTENT_CACHE.delete(placeholderKey(photo))
    const answers: Record<string, Answer> = {}
    const { bindings } = setup(answers)
    const start = future()
    await runCron(bindings, start)
    expect(await env.CONTENT_CACHE.get(placeholderKey(photo))).toBeNull()
    answers['get-about-page'] = json({ payload: { missions: [{ title: 'Safety', img: photo }] } })
    await runCron(bindings, start + TTL_SECONDS * 1000)
    expect(await env.CONTENT_CACHE.get(placeholderKey(photo))).toMatch(/^data:image\/webp;base64,/)
  })

  it('fails the run when Workers Cache refuses a purge, after storing the new content', async () => {
    const { bindings } = setup()
    await expect(runCron(bindings, Date.now(), { fail: true })).rejects.toThrow(/purge refused/)
    expect(
      await env.CONTENT_CACHE.get(`payload:v2:${backend!.origin}:erebuni:navbar-data`)
    ).not.toBeNull()
  })
})
