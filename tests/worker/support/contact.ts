/**
 * Posting to the contact routes as a browser would: same-origin headers, a client address of its
 * own per test (so the rate limiter counts from zero), and a way to see what the reference content
 * service received through the CONTENT binding.
 */
import { env } from 'cloudflare:workers'
import type { Bindings } from '../../../src/env'
import { fetchPage } from './worker'

export const VALID = { name: 'Anna Smith', email: 'anna@example.com', comments: 'We would like a quote.' }

let clients = 0
/** A client address no other test uses. */
export function newClient(): string {
  clients += 1
  return `2001:db8::${clients.toString(16)}`
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

export function postJson(bindings: Bindings, body: unknown, options: PostOptions = {}): Promise<Response> {
  return fetchPage('/api/contact', bindings, {
    method: 'POST',
    headers: browserHeaders('application/json', options),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

export function postForm(path: string, bindings: Bindings, fields: Record<string, string>, options: PostOptions = {}): Promise<Response> {
  return fetchPage(path, bindings, {
    method: 'POST',
    headers: browserHeaders('application/x-www-form-urlencoded', options),
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })
}

/**
 * The worker's own bindings, with the CONTENT service binding (the reference service) wrapped so
 * a test can read each request it received and the status it answered.
 */
export function referenceService() {
  const received: { method: string; path: string; headers: Headers; body: unknown; status: number }[] = []
  const content = env.CONTENT
  const recording = {
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const request = new Request(input, init)
      const text = await request.clone().text()
      const response = await content.fetch(request)
      const { pathname } = new URL(request.url)
      received.push({ method: request.method, path: pathname, headers: request.headers, body: text ? JSON.parse(text) : undefined, status: response.status })
      return response
    },
  } as unknown as Fetcher
  const bindings: Bindings = { ...(env as unknown as Bindings), API_HOST: '', CONTENT: recording }
  return { bindings, received, messages: () => received.filter((call) => call.path.endsWith('/messages')) }
}
