/**
 * Posting to the contact routes as a browser would: same-origin headers, a client address of its
 * own per test (so the rate limiter counts from zero), and a way to see what the reference content
 * service received through the CONTENT binding.
 */
import { env } from 'cloudflare:workers'
import type { Bindings } from '../../../src/env'
import { fetchPage } from './worker'

export const VALID = {
  name: 'Anna Smith',
  email: 'anna@example.com',
  comments: 'We would like a quote.',
}

let clients = 0
/**
 * This evaluation's own block of addresses: the test files share one runtime, whose rate limiters
 * keep their counts for a minute, and each file evaluates this module again from a count of zero.
 */
const block = crypto.getRandomValues(new Uint16Array(1))[0]!.toString(16)
/** A client address no other test uses, in this file or another. */
export function newClient(): string {
  clients += 1
  return `2001:db8:${block}::${clients.toString(16)}`
}

export type PostOptions = { client?: string; headers?: Record<string, string> }

function browserHeaders(contentType: string, { client = newClient(), headers = {} }: PostOptions) {
  return {
    'Content-Type': contentType,
    Origin: 'http://localhost',
    'Sec-Fetch-Site': 'same-origin',
    'CF-Connecting-IP': client,
    ...headers,
  }
}

export function postJson(
  bindings: Bindings,
  body: unknown,
  options: PostOptions = {}
): Promise<Response> {
  return fetchPage('/api/contact', bindings, {
    method: 'POST',
    headers: browserHeaders('application/json', options),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

export function postForm(
  path: string,
  bindings: Bindings,
  fields: Record<string, string>,
  options: PostOptions = {}
): Promise<Response> {
  return fetchPage(path, bindings, {
    method: 'POST',
    headers: browserHeaders('application/x-www-form-urlencoded', options),
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })
}

/** A backend outage as the site meets it: an answer in place of the service's, or a thrown error. */
export type Outage = () => Response | Promise<Response>

/**
 * The worker's own bindings, with the CONTENT service binding (the reference service) wrapped so
 * a test can read each request it received and the status it answered, and take the service down
 * (`service.outage = () => ...`: every call gets that instead, unrecorded; null: up again).
 */
export function referenceService() {
  const received: {
    method: string
    path: string
    headers: Headers
    body: unknown
    status: number
  }[] = []
  const content = env.CONTENT
  const service = { outage: null as Outage | null }
  const recording = {
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const request = new Request(input, init)
      if (service.outage) return service.outage()
      const text = await request.clone().text()
      const response = await content.fetch(request)
      const { pathname } = new URL(request.url)
      received.push({
        method: request.method,
        path: pathname,
        headers: request.headers,
        body: text ? JSON.parse(text) : undefined,
        status: response.status,
      })
      return response
    },
  } as unknown as Fetcher
  const bindings: Bindings = { ...(env as unknown as Bindings), API_HOST: '', CONTENT: recording }
  return Object.assign(service, {
    bindings,
    received,
    messages: () => received.filter((call) => call.path.endsWith('/messages')),
  })
}

/** The messages the reference service stored with these comments (its D1 database). */
export async function storedMessages(comments: string) {
  const rows = await env.TEST_CONTENT_DB.prepare(
    'SELECT name, email, comments, idempotency_key FROM messages WHERE comments = ?'
  )
    .bind(comments)
    .all()
  return rows.results as {
    name: string
    email: string
    comments: string
    idempotency_key: string | null
  }[]
}

/** Comments no other test sends, to find a test's message in the reference service. */
export function uniqueComments(label: string): string {
  return `${label} ${crypto.randomUUID()}`
}

/**
 * A queue binding that records what is sent to it; `fail`: every send rejects, as a queue that
 * cannot be written; `forwardTo`: sends go on to that queue as well (the real local one).
 */
export function recordingQueue({
  fail = false,
  forwardTo,
}: { fail?: boolean; forwardTo?: Queue } = {}) {
  const sent: { body: unknown; options?: QueueSendOptions }[] = []
  const queue = {
    async send(body: unknown, options?: QueueSendOptions) {
      if (fail) throw new Error('Queue send failed: Service Unavailable')
      sent.push({ body: structuredClone(body), options })
      await forwardTo?.send(body, options)
    },
  } as unknown as Queue
  return { queue, sent }
}
