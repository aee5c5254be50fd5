/**
 * The second purge (src/freshness/repurge.ts): whoever purges for a change also queues its tags with a
 * delay past KV's propagation, and the worker, as the queue's consumer, purges them again.
 */
import { createMessageBatch, getQueueResult, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { REPURGE_DELAY_SECONDS } from '../../src/freshness/repurge'
import type { Bindings } from '../../src/env'
import worker from '../../src/index'
import { fakeBackend, json, samplePayloads, type Answer } from '../support/worker/fake-backend'
import { contextWithWorkersCache } from '../support/worker/freshness'
import { fetchPage } from '../support/worker/worker'
import { signedNow } from '../support/worker/signed-call'

const SECRET = 'repurge-test-secret'
let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => backend?.restore())

/** A queue binding that records what is sent to it. */
function recordingQueue() {
  const sent: { body: unknown; options?: QueueSendOptions }[] = []
  const queue = {
    async send(body: unknown, options?: QueueSendOptions) {
      sent.push({ body, options })
    },
  } as unknown as Queue
  return { queue, sent }
}

describe('the delayed second purge', () => {
  it('is queued by the publish hook with the changed tags, past KV propagation', async () => {
    const answers: Record<string, Answer> = {}
    backend = fakeBackend(answers)
    const { queue, sent } = recordingQueue()
    const bindings: Bindings = backend.env({ PUBLISH_SECRET: SECRET, REPURGE_QUEUE: queue })
    await fetchPage('/en', bindings)
    answers['get-home-page'] = json({
      payload: { ...(samplePayloads['get-home-page'] as object), banner: [{ title: 'Again' }] },
    })
    const body = JSON.stringify({ payloads: ['get-home-page'] })
    const { ctx } = contextWithWorkersCache()
    const request = new Request('http://localhost/api/publish', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'CF-Connecting-IP': '2001:db8:9::1',
        ...(await signedNow(SECRET, body)),
      },
      body,
    })
    const response = await worker.fetch(request, bindings, ctx)
    await waitOnExecutionContext(ctx)
    expect(response.status).toBe(200)
    expect(sent).toEqual([
      {
        body: { tags: ['payload:get-home-page'] },
        options: { delaySeconds: REPURGE_DELAY_SECONDS },
      },
    ])
    expect(REPURGE_DELAY_SECONDS).toBeGreaterThan(60)
  })

  it('is not queued when nothing changed', async () => {
    backend = fakeBackend()
    const { queue, sent } = recordingQueue()
    const bindings: Bindings = backend.env({ PUBLISH_SECRET: SECRET, REPURGE_QUEUE: queue })
    await fetchPage('/en', bindings)
    const body = JSON.stringify({ payloads: ['navbar-data'] })
    const { ctx } = contextWithWorkersCache()
    const request = new Request('http://localhost/api/publish', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'CF-Connecting-IP': '2001:db8:9::2',
        ...(await signedNow(SECRET, body)),
      },
      body,
    })
    expect((await worker.fetch(request, bindings, ctx)).status).toBe(200)
    await waitOnExecutionContext(ctx)
    expect(sent).toEqual([])
  })

  it('purges every tag of a batch once, acknowledging it, and ignores malformed messages', async () => {
    const { ctx, tags } = contextWithWorkersCache()
    const batch = createMessageBatch<unknown>('erebuni-site-repurge', [
      {
        id: 'a',
        timestamp: new Date(),
        attempts: 1,
        body: { tags: ['payload:get-home-page', 'payload:navbar-data'] },
      },
      { id: 'b', timestamp: new Date(), attempts: 1, body: { tags: ['payload:get-home-page'] } },
      { id: 'c', timestamp: new Date(), attempts: 1, body: 'not a message' },
    ])
    await worker.queue(batch, env as unknown as Bindings, ctx)
    const result = await getQueueResult(batch, ctx)
    expect(tags()).toEqual(['payload:get-home-page', 'payload:navbar-data'])
    expect(result.explicitAcks).toEqual([])
    expect(result.ackAll).toBe(true)
  })

  it('retries the batch when Workers Cache refuses the purge', async () => {
    const { ctx } = contextWithWorkersCache({ fail: true })
    const batch = createMessageBatch<unknown>('erebuni-site-repurge', [
      { id: 'a', timestamp: new Date(), attempts: 1, body: { tags: ['payload:get-home-page'] } },
    ])
    await worker.queue(batch, env as unknown as Bindings, ctx)
    const result = await getQueueResult(batch, ctx)
    expect(result.retryBatch).toMatchObject({ retry: true })
    expect(result.ackAll).toBe(false)
  })
})
