/**
 * A content backend that lives at `fetch`: answers per endpoint, records every call, and can be
 * made to fail, stall or answer garbage. Each fake gets its own origin, so KV cache keys (which
 * include the origin) never collide between tests.
 */
import { vi } from 'vitest'
import { env } from 'cloudflare:workers'
import type { Bindings } from '../../../src/env'

/**
 * A canned answer is plain data, turned into a fresh Response on every call: workerd forbids
 * reading one request's Response (or stream) from another request.
 */
export type Canned = { status: number; body: string; contentType: string }
export type Answer = Canned | ((request: Request) => Response | Promise<Response>) | 'hang'

export type Call = { url: URL; method: string; headers: Headers; body: string }

/**
 * Origins are numbered across the whole run, not per file: the site's test files share one Workers
 * runtime (`isolate: false`) and evaluate this module afresh for each, so a count kept here would
 * restart at 1 in every file and give two files the same origin, and with it whatever one left
 * under that origin (a background write that finished after the next file's storage reset, a
 * stored page) to the other. The runtime's global object outlives the files.
 */
const run = globalThis as { fakeBackendOrigins?: number }
function nextOrigin(): string {
  run.fakeBackendOrigins = (run.fakeBackendOrigins ?? 0) + 1
  return `http://backend-${run.fakeBackendOrigins}.test`
}

/** Sample payloads in the backend's shapes, enough for every page to render. */
export const samplePayloads: Record<string, unknown> = {
  'get-home-page': {
    banner: [{ title: 'Building Yerevan', description: '<p>Homes</p>', img: '/images/a.jpg' }],
    arm_banner: [{ title: 'Կառուցում ենք Երևանը' }],
    servicesTitle: 'Services',
    ru_servicesTitle: 'Услуги',
  },
  'get-about-page': { firstBanner: { titleBanner: 'About us', ru_titleBanner: 'О нас' } },
  // The project of SAMPLE_PROJECT_KEY (tests/support/page-addresses.ts), so every page address renders.
  'get-enterprises-page': {
    banner: { titleBanner: 'Enterprises' },
    enterprises: [
      {
        id: 3,
        img: '/default-enterprise.jpg',
        title: 'Northern Avenue Business Centre',
        ru_title: 'Бизнес-центр',
        arm_title: 'Բիզնես կենտրոն',
      },
    ],
  },
  'contact-us': { phoneNumber: '+374 10 000000', titleContact: 'Get in Touch' },
  'navbar-data': { home: 'Home', ru_home: 'Главная', arm_home: 'Գլխավոր' },
  'page-meta-data': {
    title: 'Erebuni',
    ru_title: 'Эребуни',
    arm_title: 'Էրեբունի',
    description: 'Builders',
    image: '/og.jpg',
  },
}

export function json(body: unknown, status = 200): Canned {
  return { status, body: JSON.stringify(body), contentType: 'application/json' }
}

export function text(body: string, status = 200): Canned {
  return { status, body, contentType: 'text/html' }
}

/** Installs a fake backend; `answers` maps an endpoint name (e.g. 'navbar-data') to its answer. */
export function fakeBackend(answers: Record<string, Answer> = {}, origin = nextOrigin()) {
  const calls: Call[] = []
  const realFetch = globalThis.fetch
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init)
    const url = new URL(request.url)
    if (url.origin !== origin) return realFetch(input as RequestInfo, init)
    calls.push({
      url,
      method: request.method,
      headers: request.headers,
      body: await request.text(),
    })
    const endpoint = url.pathname.split('/').pop() ?? ''
    const answer =
      answers[endpoint] ??
      (endpoint in samplePayloads
        ? json({ payload: samplePayloads[endpoint] })
        : json({ message: 'not found' }, 404))
    if (answer === 'hang') {
      return new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason))
      })
    }
    if (typeof answer === 'function') return answer(request)
    return new Response(answer.body, {
      status: answer.status,
      headers: { 'Content-Type': answer.contentType },
    })
  })
  return {
    origin,
    calls,
    /** Calls made to one endpoint. */
    callsTo: (endpoint: string) =>
      calls.filter((call) => call.url.pathname.endsWith(`/${endpoint}`)),
    /** The worker's bindings, pointed at this backend. */
    env: (overrides: Partial<Bindings> = {}): Bindings => ({
      ...(env as unknown as Bindings),
      API_HOST: origin,
      API_TIMEOUT_MS: '200',
      ...overrides,
    }),
    restore: () => spy.mockRestore(),
  }
}
