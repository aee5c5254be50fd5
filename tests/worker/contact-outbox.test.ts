/**
 * The contact outbox (src/contact/): no message a visitor was told was received is lost through a
 * backend outage, and none is stored twice.
 *
 * The first tests run the real local queue: the worker sends to CONTACT_QUEUE and the test pool
 * runs its consumer, which reaches the reference service through the pool's own CONTENT binding
 * (taken down by spying on its fetch), with CONTACT_RETRY_MAX_DELAY_SECONDS = 0 (vitest.config.ts)
 * so the schedule runs in seconds. The others hand the consumers batches themselves
 * (createMessageBatch) to check each decision: delays, dead letters, reports.
 */
import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CONTACT_MAX_RETRIES, CONTACT_RETRY_DELAYS } from '../../src/contact'
import {
  DEAD_LETTER_KEEP_SECONDS,
  DEAD_LETTER_PREFIX,
  type DeadLetterMetadata,
} from '../../src/contact/dead-letters'
import type { OutboxMessage } from '../../src/contact/outbox-message'
import type { Bindings } from '../../src/env'
import worker from '../../src/index'
import {
  newClient,
  postForm,
  postJson,
  recordingQueue,
  referenceService,
  storedMessages,
  uniqueComments,
  VALID,
} from '../support/worker/contact'
import { fakeBackend, json, text } from '../support/worker/fake-backend'
import { fakeSentry, SENTRY_DSN } from '../support/worker/fake-sentry'
import { fetchPage } from '../support/worker/worker'
import { signedNow } from '../support/worker/signed-call'

let backend: ReturnType<typeof fakeBackend> | undefined
let sentry: ReturnType<typeof fakeSentry> | undefined
afterEach(() => {
  backend?.restore()
  backend = undefined
  sentry?.restore()
  sentry = undefined
  vi.restoreAllMocks()
})

const poolEnv = env as unknown as Bindings
const DOWN = () =>
  new Response(JSON.stringify({ message: 'Service Unavailable' }), {
    status: 503,
    headers: { 'Content-Type': 'application/json' },
  })

/**
 * Takes the pool's reference service down for the queue consumer: its first `calls` message
 * deliveries answer 503 (Infinity: all). Counts them.
 */
function consumerOutage(calls: number) {
  const realFetch = poolEnv.CONTENT.fetch.bind(poolEnv.CONTENT)
  const refused: string[] = []
  vi.spyOn(poolEnv.CONTENT, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init)
    if (new URL(request.url).pathname.endsWith('/messages') && refused.length < calls) {
      refused.push(request.headers.get('Idempotency-Key') ?? '')
      return DOWN()
    }
    return realFetch(request)
  })
  return { refused }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function outboxMessage(comments: string, overrides: Partial<OutboxMessage> = {}): OutboxMessage {
  return {
    id: crypto.randomUUID(),
    acceptedAt: Date.now(),
    message: { ...VALID, comments },
    ...overrides,
  }
}

/**
 * A batch whose messages record how they were settled, delays included (the test pool's
 * getQueueResult reports retries without their delaySeconds).
 */
function recordingBatch(queue: string, messages: { body: unknown; attempts: number }[]) {
  const settled = new Map<string, { ack: true } | { retry: QueueRetryOptions | undefined }>()
  const batch = {
    queue,
    messages: messages.map(({ body, attempts }, index) => ({
      id: `m${index}`,
      timestamp: new Date(),
      body,
      attempts,
      ack: () => void settled.set(`m${index}`, { ack: true }),
      retry: (options?: QueueRetryOptions) => void settled.set(`m${index}`, { retry: options }),
    })),
    ackAll: () => {
      throw new Error('the contact consumer settles each message on its own')
    },
    retryAll: () => {
      throw new Error('the contact consumer settles each message on its own')
    },
  } as unknown as MessageBatch<unknown>
  return { batch, settled }
}

function batchOf(queue: string, messages: { body: unknown; attempts?: number }[]) {
  return createMessageBatch<unknown>(
    queue,
    messages.map(({ body, attempts = 1 }, index) => ({
      id: `m${index}`,
      timestamp: new Date(),
      attempts,
      body,
    }))
  )
}

describe('a message the backend cannot take now, through the local queue', () => {
  it('is queued and answered as received, then delivered exactly once when the backend is back', async () => {
    const service = referenceService()
    service.outage = DOWN
    const { refused } = consumerOutage(2)
    const comments = uniqueComments('outage')
    const response = await postJson(service.bindings, { ...VALID, comments })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
    expect(await storedMessages(comments)).toEqual([])

    const stored = await vi.waitUntil(
      async () => {
        const rows = await storedMessages(comments)
        return rows.length > 0 && rows
      },
      { timeout: 30_000, interval: 200 }
    )
    expect(refused).toHaveLength(2)
    expect(stored).toEqual([{ ...VALID, comments, idempotency_key: refused[0] }])
    await sleep(2_500)
    expect(await storedMessages(comments)).toHaveLength(1)
  }, 60_000)

  it('goes to the dead-letter queue after every delivery of the schedule failed, and is kept there for an operator', async () => {
    sentry = fakeSentry()
    const service = referenceService()
    service.outage = DOWN
    const { refused } = consumerOutage(Infinity)
    const comments = uniqueComments('dead letter')
    expect((await postJson(service.bindings, { ...VALID, comments })).status).toBe(200)

    const id = await vi.waitUntil(() => refused[0], { timeout: 30_000, interval: 200 })
    const kept = await vi.waitUntil(
      async () => {
        const entry = await poolEnv.CONTACT_OUTBOX.getWithMetadata<DeadLetterMetadata>(
          DEAD_LETTER_PREFIX + id,
          'json'
        )
        return entry.value !== null && entry
      },
      { timeout: 60_000, interval: 200 }
    )
    expect(refused).toHaveLength(CONTACT_MAX_RETRIES + 1)
    expect(kept.value).toMatchObject({ id, message: { ...VALID, comments } })
    expect(kept.metadata).toMatchObject({
      attempts: CONTACT_MAX_RETRIES + 1,
      reason: `backend unavailable for all ${CONTACT_MAX_RETRIES + 1} deliveries`,
    })
    expect(await storedMessages(comments)).toEqual([])
  }, 90_000)
})

describe('a message the backend cannot take now', () => {
  it.each([
    ['answers 503', { messages: json({ message: 'maintenance' }, 503) }],
    ['answers 500 without a body', { messages: text('', 500) }],
    ['answers 429', { messages: json({}, 429) }],
    ['cannot be reached', { messages: () => Promise.reject(new TypeError('connection refused')) }],
    ['times out', { messages: 'hang' as const }],
  ])(
    'is queued with its id, its time and the first delay (30 s) when the backend %s',
    async (_, answers) => {
      backend = fakeBackend(answers)
      const { queue, sent } = recordingQueue()
      const before = Date.now()
      const response = await postJson(
        backend.env({
          API_TIMEOUT_MS: '150',
          CONTACT_QUEUE: queue,
          CONTACT_RETRY_MAX_DELAY_SECONDS: '43200',
        }),
        VALID
      )
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ ok: true })
      expect(sent).toHaveLength(1)
      const [{ body, options }] = sent as [{ body: OutboxMessage; options: QueueSendOptions }]
      expect(options).toEqual({ delaySeconds: CONTACT_RETRY_DELAYS[0] })
      expect(CONTACT_RETRY_DELAYS[0]).toBeLessThanOrEqual(60)
      expect(body.message).toEqual(VALID)
      expect(body.acceptedAt).toBeGreaterThanOrEqual(before)
      expect(backend.callsTo('messages')[0]?.headers.get('Idempotency-Key')).toBe(body.id)
    }
  )

  it('is queued from the plain form as well, which redirects to the success notice', async () => {
    backend = fakeBackend({ messages: json({}, 502) })
    const { queue, sent } = recordingQueue()
    const response = await postForm('/ru/contact-us', backend.env({ CONTACT_QUEUE: queue }), VALID)
    expect(response.status).toBe(303)
    expect(response.headers.get('Location')).toBe('/ru/contact-us?sent=1')
    expect(sent.map(({ body }) => (body as OutboxMessage).message)).toEqual([VALID])
  })
})

describe('a message the backend refuses', () => {
  it.each([400, 401, 404, 409, 422])(
    'answers %i with the spec’s error and queues nothing',
    async (status) => {
      backend = fakeBackend({ messages: json({ message: 'Invalid email format' }, status) })
      const { queue, sent } = recordingQueue()
      const response = await postJson(backend.env({ CONTACT_QUEUE: queue }), VALID)
      expect(response.status).toBe(502)
      expect(await response.json()).toEqual({ ok: false, message: 'Invalid email format' })
      expect(sent).toEqual([])
    }
  )

  it('shows the plain form again with the backend’s message and queues nothing', async () => {
    backend = fakeBackend({
      messages: json({ message: 'Name must be no more than 20 characters' }, 400),
    })
    const { queue, sent } = recordingQueue()
    const response = await postForm('/en/contact-us', backend.env({ CONTACT_QUEUE: queue }), VALID)
    expect(response.status).toBe(502)
    expect(await response.text()).toContain(
      'role="alert">Name must be no more than 20 characters</p>'
    )
    expect(sent).toEqual([])
  })

  it('is not recognised as a repeat: the same form sent again is tried again', async () => {
    backend = fakeBackend({ messages: json({ message: 'Try another address' }, 422) })
    const client = newClient()
    await postJson(backend.env(), VALID, { client })
    await postJson(backend.env(), VALID, { client })
    expect(backend.callsTo('messages')).toHaveLength(2)
  })
})

describe('a message neither the backend nor the queue can take', () => {
  it('is never answered as received: 502 for the island, and reported', async () => {
    sentry = fakeSentry()
    backend = fakeBackend({ messages: json({}, 503) })
    const response = await postJson(
      backend.env({ SENTRY_DSN, CONTACT_QUEUE: recordingQueue({ fail: true }).queue }),
      VALID
    )
    expect(response.status).toBe(502)
    expect(await response.json()).toEqual({ ok: false })
    const notKept = sentry.events.filter((event) => event.tags?.contact === 'not-kept')
    expect(notKept).toHaveLength(1)
    expect(JSON.stringify(sentry.events)).not.toContain(VALID.email)
  })

  it('shows the plain form again with the generic error (504 after a time-out), keeping the input', async () => {
    backend = fakeBackend({ messages: 'hang' })
    const response = await postForm(
      '/en/contact-us',
      backend.env({ API_TIMEOUT_MS: '150', CONTACT_QUEUE: recordingQueue({ fail: true }).queue }),
      VALID
    )
    expect(response.status).toBe(504)
    const html = await response.text()
    expect(html).toContain('role="alert">Something went wrong. Please try again later.</p>')
    expect(html).toContain(`value="${VALID.name}"`)
  })

  it('answers 502 when no queue is bound', async () => {
    backend = fakeBackend({ messages: json({}, 500) })
    const response = await postJson(
      backend.env({ CONTACT_QUEUE: undefined as unknown as Queue }),
      VALID
    )
    expect(response.status).toBe(502)
  })

  it('is not remembered: sent again once the backend is back, it is delivered', async () => {
    const service = referenceService()
    service.outage = DOWN
    const client = newClient()
    const comments = uniqueComments('queue down')
    const failing = { ...service.bindings, CONTACT_QUEUE: recordingQueue({ fail: true }).queue }
    expect((await postJson(failing, { ...VALID, comments }, { client })).status).toBe(502)
    service.outage = null
    expect((await postJson(service.bindings, { ...VALID, comments }, { client })).status).toBe(200)
    expect(await storedMessages(comments)).toHaveLength(1)
  })
})

describe('the same form sent twice within a minute by one client', () => {
  it('is delivered once when sent one after the other: the second send is recognised and not forwarded', async () => {
    const service = referenceService()
    const client = newClient()
    const comments = uniqueComments('double click')
    const first = await postJson(service.bindings, { ...VALID, comments }, { client })
    const second = await postJson(service.bindings, { ...VALID, comments }, { client })
    expect([first.status, second.status]).toEqual([200, 200])
    expect(await second.json()).toEqual({ ok: true })
    expect(service.messages()).toHaveLength(1)
    expect(await storedMessages(comments)).toHaveLength(1)
  })

  it('is stored once when both sends are in flight together (one Idempotency-Key)', async () => {
    const service = referenceService()
    const client = newClient()
    const comments = uniqueComments('in flight')
    const answers = await Promise.all([
      postJson(service.bindings, { ...VALID, comments }, { client }),
      postJson(service.bindings, { ...VALID, comments }, { client }),
    ])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200])
    const keys = service.messages().map((call) => call.headers.get('Idempotency-Key'))
    expect(new Set(keys).size).toBe(1)
    expect(await storedMessages(comments)).toHaveLength(1)
  })

  it('is queued once during an outage', async () => {
    backend = fakeBackend({ messages: json({}, 503) })
    const { queue, sent } = recordingQueue()
    const client = newClient()
    await postJson(backend.env({ CONTACT_QUEUE: queue }), VALID, { client })
    await postJson(backend.env({ CONTACT_QUEUE: queue }), VALID, { client })
    expect(sent).toHaveLength(1)
  })

  it('is recognised across the two forms: the island’s send, then the plain form’s', async () => {
    const service = referenceService()
    const client = newClient()
    const comments = uniqueComments('both forms')
    expect((await postJson(service.bindings, { ...VALID, comments }, { client })).status).toBe(200)
    const plain = await postForm(
      '/en/contact-us',
      service.bindings,
      { ...VALID, comments },
      { client }
    )
    expect(plain.status).toBe(303)
    expect(await storedMessages(comments)).toHaveLength(1)
  })

  it('is two messages when another client sends the same text, or the same client another text', async () => {
    const service = referenceService()
    const client = newClient()
    const comments = uniqueComments('two people')
    await postJson(service.bindings, { ...VALID, comments }, { client })
    await postJson(service.bindings, { ...VALID, comments }, { client: newClient() })
    await postJson(
      service.bindings,
      { ...VALID, comments: `${comments}, and another question` },
      { client }
    )
    expect(await storedMessages(comments)).toHaveLength(2)
    expect(await storedMessages(`${comments}, and another question`)).toHaveLength(1)
  })
})

describe('the contact queue’s consumer', () => {
  const QUEUE = 'erebuni-site-contact'

  it('delivers with the message’s id as Idempotency-Key and acknowledges it', async () => {
    backend = fakeBackend({ messages: json({ payload: { id: 7 } }) })
    const message = outboxMessage('delivered')
    const batch = batchOf(QUEUE, [{ body: message, attempts: 3 }])
    const ctx = createExecutionContext()
    await worker.queue(batch, backend.env(), ctx)
    const result = await getQueueResult(batch, ctx)
    expect(result.explicitAcks).toEqual(['m0'])
    expect(result.retryMessages).toEqual([])
    const [call] = backend.callsTo('messages')
    expect(call?.headers.get('Idempotency-Key')).toBe(message.id)
    expect(JSON.parse(call!.body)).toEqual(message.message)
  })

  it('retries while the backend is down, each time after the next, longer delay of the schedule', async () => {
    backend = fakeBackend({ messages: json({}, 503) })
    const attempts = Array.from({ length: CONTACT_MAX_RETRIES + 1 }, (_, index) => index + 1)
    const { batch, settled } = recordingBatch(
      QUEUE,
      attempts.map((attempt) => ({ body: outboxMessage(`retry ${attempt}`), attempts: attempt }))
    )
    const ctx = createExecutionContext()
    await worker.queue(batch, backend.env({ CONTACT_RETRY_MAX_DELAY_SECONDS: '43200' }), ctx)
    await waitOnExecutionContext(ctx)
    const delays = attempts.map((_, index) => {
      const outcome = settled.get(`m${index}`)
      return outcome && 'retry' in outcome ? outcome.retry?.delaySeconds : 'not retried'
    })
    // After delivery n, the wait before delivery n + 1; after the last, the queue moves it to the dead-letter queue.
    expect(delays).toEqual([...CONTACT_RETRY_DELAYS.slice(1), CONTACT_RETRY_DELAYS.at(-1)])
    expect(backend.callsTo('messages')).toHaveLength(attempts.length)
  })

  it('caps every delay at CONTACT_RETRY_MAX_DELAY_SECONDS (the soak and these tests run the schedule in seconds)', async () => {
    backend = fakeBackend({ messages: json({}, 500) })
    const { batch, settled } = recordingBatch(
      QUEUE,
      [1, 6, 11].map((attempts) => ({ body: outboxMessage('capped'), attempts }))
    )
    const ctx = createExecutionContext()
    await worker.queue(batch, backend.env({ CONTACT_RETRY_MAX_DELAY_SECONDS: '2' }), ctx)
    expect([...settled.values()]).toEqual([
      { retry: { delaySeconds: 2 } },
      { retry: { delaySeconds: 2 } },
      { retry: { delaySeconds: 2 } },
    ])
  })

  it('keeps a message the backend refuses as a dead letter at once, reported without its text or address', async () => {
    sentry = fakeSentry()
    backend = fakeBackend({ messages: json({ message: `Invalid email: ${VALID.email}` }, 400) })
    const message = outboxMessage(uniqueComments('refused later'))
    const batch = batchOf(QUEUE, [{ body: message, attempts: 4 }])
    const ctx = createExecutionContext()
    await worker.queue(batch, backend.env({ SENTRY_DSN }), ctx)
    const result = await getQueueResult(batch, ctx)
    await waitOnExecutionContext(ctx)
    expect(result.explicitAcks).toEqual(['m0'])
    const kept = await poolEnv.CONTACT_OUTBOX.getWithMetadata<DeadLetterMetadata>(
      DEAD_LETTER_PREFIX + message.id,
      'json'
    )
    expect(kept.value).toEqual(message)
    expect(kept.metadata).toMatchObject({ attempts: 4, reason: 'refused (HTTP 400)' })
    expect(sentry.events).toHaveLength(1)
    expect(sentry.events[0]?.tags).toMatchObject({
      kind: 'contact-dead-letter',
      contact_id: message.id,
    })
    const reported = JSON.stringify(sentry.events)
    for (const personal of [VALID.name, VALID.email, message.message.comments])
      expect(reported).not.toContain(personal)
  })

  it('acknowledges and drops a body that is not an outbox message', async () => {
    const batch = batchOf(QUEUE, [
      { body: 'not a message' },
      { body: { id: 'x', acceptedAt: 1, message: { name: 'A' } } },
    ])
    const ctx = createExecutionContext()
    await worker.queue(batch, poolEnv, ctx)
    expect((await getQueueResult(batch, ctx)).explicitAcks.sort()).toEqual(['m0', 'm1'])
  })
})

describe('the dead-letter queue’s consumer', () => {
  const DEAD_LETTERS = 'erebuni-site-contact-dead-letters'

  it('keeps each message until 30 days after the visitor sent it and reports it by id', async () => {
    sentry = fakeSentry()
    const acceptedAt = Date.now() - 29 * 3600 * 1000
    const message = outboxMessage(uniqueComments('dead'), { acceptedAt })
    const batch = batchOf(DEAD_LETTERS, [{ body: message }])
    const ctx = createExecutionContext()
    await worker.queue(batch, { ...poolEnv, SENTRY_DSN }, ctx)
    const result = await getQueueResult(batch, ctx)
    await waitOnExecutionContext(ctx)
    expect(result.explicitAcks).toEqual(['m0'])
    const listed = await poolEnv.CONTACT_OUTBOX.list<DeadLetterMetadata>({
      prefix: DEAD_LETTER_PREFIX + message.id,
    })
    expect(listed.keys).toHaveLength(1)
    expect(listed.keys[0]?.expiration).toBe(
      Math.floor(acceptedAt / 1000) + DEAD_LETTER_KEEP_SECONDS
    )
    expect(listed.keys[0]?.metadata).toMatchObject({
      acceptedAt: new Date(acceptedAt).toISOString(),
      attempts: CONTACT_MAX_RETRIES + 1,
    })
    expect(JSON.stringify(listed.keys)).not.toContain(VALID.email)
    expect(sentry.events.map((event) => event.tags)).toEqual([
      expect.objectContaining({
        kind: 'contact-dead-letter',
        contact_id: message.id,
        route: 'queue:contact',
      }),
    ])
    const reported = JSON.stringify(sentry.events)
    for (const personal of [VALID.name, VALID.email, message.message.comments])
      expect(reported).not.toContain(personal)
  })

  it('drops and reports a message sent more than 30 days ago', async () => {
    sentry = fakeSentry()
    const message = outboxMessage('too old', {
      acceptedAt: Date.now() - (DEAD_LETTER_KEEP_SECONDS + 60) * 1000,
    })
    const batch = batchOf(DEAD_LETTERS, [{ body: message }])
    const ctx = createExecutionContext()
    await worker.queue(batch, { ...poolEnv, SENTRY_DSN }, ctx)
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['m0'])
    await waitOnExecutionContext(ctx)
    expect(await poolEnv.CONTACT_OUTBOX.get(DEAD_LETTER_PREFIX + message.id)).toBeNull()
    expect(JSON.stringify(sentry.events)).toContain('past the 30 days')
  })

  it('retries a message KV cannot keep yet', async () => {
    const failingKv = {
      put: () => Promise.reject(new Error('KV PUT failed: 503')),
    } as unknown as KVNamespace
    const batch = batchOf(DEAD_LETTERS, [{ body: outboxMessage('kv down') }])
    const ctx = createExecutionContext()
    await worker.queue(batch, { ...poolEnv, CONTACT_OUTBOX: failingKv }, ctx)
    const result = await getQueueResult(batch, ctx)
    expect(result.explicitAcks).toEqual([])
    expect(result.retryMessages.map((retry) => retry.msgId)).toEqual(['m0'])
  })
})

describe('resending dead letters (POST /api/contact/resend)', () => {
  const SECRET = 'resend-test-secret'

  async function resend(bindings: Bindings, body: string, sign = true) {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'CF-Connecting-IP': newClient(),
    }
    if (sign) Object.assign(headers, await signedNow(SECRET, body))
    return fetchPage('/api/contact/resend', bindings, { method: 'POST', headers, body })
  }

  it('puts every dead letter back on the queue, which delivers it to the backend once, and forgets it', async () => {
    const comments = uniqueComments('resent')
    const message = outboxMessage(comments)
    await poolEnv.CONTACT_OUTBOX.put(DEAD_LETTER_PREFIX + message.id, JSON.stringify(message))
    const response = await resend({ ...poolEnv, PUBLISH_SECRET: SECRET }, '{}')
    expect(response.status).toBe(200)
    const report = (await response.json()) as { resent: string[]; failed: string[] }
    expect(report.resent).toContain(message.id)
    expect(report.failed).toEqual([])
    expect(await poolEnv.CONTACT_OUTBOX.get(DEAD_LETTER_PREFIX + message.id)).toBeNull()
    const stored = await vi.waitUntil(
      async () => {
        const rows = await storedMessages(comments)
        return rows.length > 0 && rows
      },
      { timeout: 30_000, interval: 200 }
    )
    expect(stored).toEqual([{ ...message.message, idempotency_key: message.id }])
  })

  it('resends only the ids named, and keeps a letter the queue refuses', async () => {
    const [first, second] = [outboxMessage('first'), outboxMessage('second')]
    for (const message of [first, second])
      await poolEnv.CONTACT_OUTBOX.put(DEAD_LETTER_PREFIX + message.id, JSON.stringify(message))
    const failing = {
      ...poolEnv,
      PUBLISH_SECRET: SECRET,
      CONTACT_QUEUE: recordingQueue({ fail: true }).queue,
    }
    const response = await resend(failing, JSON.stringify({ ids: [first.id, 'no-such-id'] }))
    expect(await response.json()).toEqual({
      resent: [],
      failed: [first.id],
      missing: ['no-such-id'],
    })
    expect(await poolEnv.CONTACT_OUTBOX.get(DEAD_LETTER_PREFIX + first.id)).not.toBeNull()
    expect(await poolEnv.CONTACT_OUTBOX.get(DEAD_LETTER_PREFIX + second.id)).not.toBeNull()
  })

  it.each([
    ['unsigned', '{}', false, 401],
    ['a body that is not JSON', 'ids', true, 400],
    ['an unknown field', '{"all": true}', true, 400],
  ])('refuses a call %s and touches nothing', async (_, body, sign, status) => {
    const message = outboxMessage('stays')
    await poolEnv.CONTACT_OUTBOX.put(DEAD_LETTER_PREFIX + message.id, JSON.stringify(message))
    const { queue, sent } = recordingQueue()
    const response = await resend(
      { ...poolEnv, PUBLISH_SECRET: SECRET, CONTACT_QUEUE: queue },
      body,
      sign
    )
    expect(response.status).toBe(status)
    expect(sent).toEqual([])
    expect(await poolEnv.CONTACT_OUTBOX.get(DEAD_LETTER_PREFIX + message.id)).not.toBeNull()
  })

  it('answers 503 without PUBLISH_SECRET', async () => {
    expect((await resend({ ...poolEnv, PUBLISH_SECRET: '' }, '{}')).status).toBe(503)
  })
})

describe('logs', () => {
  it('never carry a message’s text, name or address, from the send to the dead letter', async () => {
    const lines: string[] = []
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation(
        (...args: unknown[]) => void lines.push(args.map(String).join(' '))
      )
    }
    const personal = {
      name: 'Ծովինար Ղազարյան',
      email: 'tsovinar.private@example.am',
      comments: uniqueComments('private question'),
    }
    backend = fakeBackend({ messages: json({ message: `Invalid address ${personal.email}` }, 503) })
    const { queue, sent } = recordingQueue()
    expect((await postJson(backend.env({ CONTACT_QUEUE: queue }), personal)).status).toBe(200)
    const body = sent[0]!.body as OutboxMessage
    for (const [answer, attempts] of [
      [json({}, 503), 1],
      [json({ message: personal.email }, 400), 2],
    ] as const) {
      backend.restore()
      backend = fakeBackend({ messages: answer }, backend.origin)
      const batch = batchOf('erebuni-site-contact', [{ body, attempts }])
      const ctx = createExecutionContext()
      await worker.queue(batch, backend.env(), ctx)
      await getQueueResult(batch, ctx)
    }
    const dead = batchOf('erebuni-site-contact-dead-letters', [{ body }])
    const ctx = createExecutionContext()
    await worker.queue(dead, poolEnv, ctx)
    await getQueueResult(dead, ctx)
    expect(lines.join('\n')).toContain(body.id)
    for (const value of Object.values(personal)) expect(lines.join('\n')).not.toContain(value)
  })
})
