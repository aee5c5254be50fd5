/**
 * The beacon endpoints (src/routes/telemetry.ts): same-origin, size-limited, schema-checked beacons
 * become Analytics Engine data points, or log lines when no dataset is bound. A vitals beacon's
 * device class, version and server timing become blobs 8 to 10 and double 2 of each of its points.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Bindings } from '../../src/env'
import worker from '../../src/index'
import type { ClientErrorsBeacon, VitalsBeacon } from '../../src/shared/telemetry'
import { recordingDataset } from '../support/worker/recording-dataset'

afterEach(() => {
  vi.restoreAllMocks()
})

const ORIGIN = 'https://www.erebuni.example'

type PostOptions = {
  headers?: Record<string, string>
  bindings?: Partial<Bindings>
  body?: BodyInit
}

let clients = 0
/** A client address of its own, so that tests never share a rate-limit budget unless they mean to. */
const newClient = () => `test-client-${++clients}`

/**
 * POSTs `beacon` as navigator.sendBeacon does with a string: text/plain, from a page of the site,
 * from a client of its own unless `headers` name one. A header given as '' is left out.
 */
async function post(path: string, beacon: unknown, { headers, bindings, body }: PostOptions = {}) {
  const ctx = createExecutionContext()
  const request = new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: Object.entries({
      'Content-Type': 'text/plain;charset=UTF-8',
      Origin: ORIGIN,
      'CF-Connecting-IP': newClient(),
      ...headers,
    }).filter(([, value]) => value !== ''),
    body: body ?? JSON.stringify(beacon),
  })
  const response = await worker.fetch(
    request,
    { ...(env as unknown as Bindings), ...bindings },
    ctx
  )
  await waitOnExecutionContext(ctx)
  return response
}

const vitals: VitalsBeacon = {
  page: '/ru/about',
  metrics: [
    { name: 'LCP', value: 1234.5, rating: 'good', id: 'v5-1', navigationType: 'navigate' },
    {
      name: 'CLS',
      value: 0.12,
      rating: 'needs-improvement',
      id: 'v5-2',
      navigationType: 'navigate',
    },
  ],
}

const clientErrors: ClientErrorsBeacon = {
  page: '/en/contact-us',
  errors: [
    {
      kind: 'error',
      message: 'TypeError: x is undefined',
      source: `${ORIGIN}/assets/main.js`,
      line: 1,
      column: 420,
      stack: 'at f (main.js:1:420)',
    },
    { kind: 'unhandledrejection', message: 'Failed to fetch' },
  ],
}

describe('POST /api/vitals', () => {
  it('writes one data point per metric with its page key and language', async () => {
    const { points, dataset } = recordingDataset()
    const response = await post('/api/vitals', vitals, { bindings: { VITALS: dataset } })
    expect(response.status).toBe(204)
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(points).toEqual([
      {
        indexes: ['LCP'],
        blobs: ['vital', 'LCP', 'good', '/about', 'ru', 'navigate', '', '', '', 'unknown'],
        doubles: [1234.5, -1],
      },
      {
        indexes: ['CLS'],
        blobs: [
          'vital',
          'CLS',
          'needs-improvement',
          '/about',
          'ru',
          'navigate',
          '',
          '',
          '',
          'unknown',
        ],
        doubles: [0.12, -1],
      },
    ])
  })

  it("writes the page view's device class, version and server timing into every metric's data point", async () => {
    const { points, dataset } = recordingDataset()
    const beacon: VitalsBeacon = {
      ...vitals,
      device: 'phone',
      version: '5f3c2a9e-8b1d-4c7e-9a6f-0d2e4b8c1a37',
      served: { cache: 'miss', ms: 182 },
    }
    const response = await post('/api/vitals', beacon, { bindings: { VITALS: dataset } })
    expect(response.status).toBe(204)
    expect(points.map((point) => [point.blobs?.slice(7), point.doubles])).toEqual([
      [
        ['phone', '5f3c2a9e-8b1d-4c7e-9a6f-0d2e4b8c1a37', 'miss'],
        [1234.5, 182],
      ],
      [
        ['phone', '5f3c2a9e-8b1d-4c7e-9a6f-0d2e4b8c1a37', 'miss'],
        [0.12, 182],
      ],
    ])
    // A page served by the edge cache says so, with no worker time.
    await post(
      '/api/vitals',
      { ...beacon, device: 'desktop', served: { cache: 'edge' } },
      { bindings: { VITALS: dataset } }
    )
    expect(points[2]?.blobs?.slice(7)).toEqual([
      'desktop',
      '5f3c2a9e-8b1d-4c7e-9a6f-0d2e4b8c1a37',
      'edge',
    ])
    expect(points[2]?.doubles).toEqual([1234.5, -1])
  })

  it('logs the data points when no dataset is bound', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    const beacon = { page: '/', metrics: [{ name: 'TTFB', value: 80, rating: 'good', id: 'a' }] }
    const response = await post('/api/vitals', beacon, { bindings: { VITALS: undefined } })
    expect(response.status).toBe(204)
    expect(log).toHaveBeenCalledWith(
      `telemetry ${JSON.stringify({ indexes: ['TTFB'], blobs: ['vital', 'TTFB', 'good', '/', 'hy', '', '', '', '', 'unknown'], doubles: [80, -1] })}`
    )
  })

  it('accepts a beacon sent as application/json, or without Origin from the same site', async () => {
    const { points, dataset } = recordingDataset()
    const bindings = { VITALS: dataset }
    expect(
      (
        await post('/api/vitals', vitals, {
          bindings,
          headers: { 'Content-Type': 'application/json' },
        })
      ).status
    ).toBe(204)
    const noOrigin = await post('/api/vitals', vitals, {
      bindings,
      headers: { Origin: '', 'Sec-Fetch-Site': 'same-origin' },
    })
    expect(noOrigin.status).toBe(204)
    expect(points).toHaveLength(4)
  })

  it.each([
    ['another site', { Origin: 'https://evil.example' }],
    ['another scheme of this host', { Origin: 'http://www.erebuni.example' }],
    ['no Origin and a cross-site fetch', { Origin: '', 'Sec-Fetch-Site': 'cross-site' }],
  ])('refuses a beacon from %s with 403', async (_, headers) => {
    const { points, dataset } = recordingDataset()
    const response = await post('/api/vitals', vitals, { headers, bindings: { VITALS: dataset } })
    expect(response.status).toBe(403)
    expect(points).toHaveLength(0)
  })

  it('refuses a body over 4 KB with 413, with or without Content-Length', async () => {
    const { points, dataset } = recordingDataset()
    const big = { ...vitals, page: `/${'a'.repeat(5000)}` }
    expect((await post('/api/vitals', big, { bindings: { VITALS: dataset } })).status).toBe(413)
    const stream = new Blob([JSON.stringify(big)]).stream()
    expect(
      (await post('/api/vitals', null, { body: stream, bindings: { VITALS: dataset } })).status
    ).toBe(413)
    expect(points).toHaveLength(0)
  })

  it.each([
    ['not JSON', '{"page":'],
    [
      'an unknown metric',
      JSON.stringify({ page: '/', metrics: [{ name: 'FID', value: 1, rating: 'good', id: 'a' }] }),
    ],
    [
      'a negative value',
      JSON.stringify({ page: '/', metrics: [{ name: 'LCP', value: -1, rating: 'good', id: 'a' }] }),
    ],
    [
      'an unknown rating',
      JSON.stringify({ page: '/', metrics: [{ name: 'LCP', value: 1, rating: 'great', id: 'a' }] }),
    ],
    ['no metrics', JSON.stringify({ page: '/', metrics: [] })],
    [
      'too many metrics',
      JSON.stringify({
        page: '/',
        metrics: Array(9).fill({ name: 'CLS', value: 0, rating: 'good', id: 'a' }),
      }),
    ],
    ['a page that is not a path', JSON.stringify({ ...vitals, page: 'https://evil.example/' })],
    ['an unknown device class', JSON.stringify({ ...vitals, device: 'Pixel 7 (Android 15)' })],
    ['a version that is not a version id', JSON.stringify({ ...vitals, version: "x' OR 1=1 --" })],
    ['an unknown cache level', JSON.stringify({ ...vitals, served: { cache: 'cdn' } })],
    ['a negative server time', JSON.stringify({ ...vitals, served: { cache: 'miss', ms: -5 } })],
  ])('refuses %s with 400', async (_, body) => {
    const { points, dataset } = recordingDataset()
    const response = await post('/api/vitals', null, { body, bindings: { VITALS: dataset } })
    expect(response.status).toBe(400)
    expect(points).toHaveLength(0)
  })
})

describe('POST /api/client-errors', () => {
  it('writes one data point per error', async () => {
    const { points, dataset } = recordingDataset()
    const response = await post('/api/client-errors', clientErrors, {
      bindings: { VITALS: dataset },
    })
    expect(response.status).toBe(204)
    expect(points).toEqual([
      {
        indexes: ['client-error'],
        blobs: [
          'client-error',
          'error',
          'TypeError: x is undefined',
          `${ORIGIN}/assets/main.js`,
          '/contact-us',
          'en',
          'at f (main.js:1:420)',
          '',
        ],
        doubles: [1, 420],
      },
      {
        indexes: ['client-error'],
        blobs: [
          'client-error',
          'unhandledrejection',
          'Failed to fetch',
          '',
          '/contact-us',
          'en',
          '',
          '',
        ],
        doubles: [0, 0],
      },
    ])
  })

  it('refuses a cross-site report and a malformed one', async () => {
    const { points, dataset } = recordingDataset()
    const bindings = { VITALS: dataset }
    expect(
      (
        await post('/api/client-errors', clientErrors, {
          bindings,
          headers: { Origin: 'https://evil.example' },
        })
      ).status
    ).toBe(403)
    const tooMany = { page: '/', errors: Array(6).fill({ kind: 'error', message: 'x' }) }
    expect((await post('/api/client-errors', tooMany, { bindings })).status).toBe(400)
    expect(
      (
        await post(
          '/api/client-errors',
          { page: '/', errors: [{ kind: 'warning', message: 'x' }] },
          { bindings }
        )
      ).status
    ).toBe(400)
    expect(
      (
        await post(
          '/api/client-errors',
          { page: '/', errors: [{ kind: 'error', message: 'x'.repeat(301) }] },
          { bindings }
        )
      ).status
    ).toBe(400)
    expect(points).toHaveLength(0)
  })
})

/**
 * A limiter as the platform's `simple` one counts, per key and per window: it allows each key's
 * first `limit` beacons in a window and refuses the rest, recording every key it was asked about.
 * Its windows are the ones the test moves on (`nextWindow`), not the wall clock's minutes: a
 * flood's outcome then never depends on how fast the machine sends it.
 */
function countingLimiter(limit: number) {
  const keys: string[] = []
  let counts = new Map<string, number>()
  const binding = {
    limit: async ({ key }: { key: string }) => {
      keys.push(key)
      const count = (counts.get(key) ?? 0) + 1
      counts.set(key, count)
      return { success: count <= limit }
    },
  } as unknown as RateLimit
  return { keys, binding, nextWindow: () => void (counts = new Map()) }
}

/** wrangler.toml's TELEMETRY_RATE_LIMITER: `simple = { limit = 60, period = 60 }` (tests/tooling/telemetry-limit-config.test.ts checks it). */
const TELEMETRY_LIMIT_PER_PERIOD = 60

describe('beacons are limited per client (TELEMETRY_RATE_LIMITER)', () => {
  it('refuses a flood with 429 and Retry-After once past the limit, before reading the body: a refused beacon writes no row', async () => {
    const { points, dataset } = recordingDataset()
    const limiter = countingLimiter(3)
    const bindings = { VITALS: dataset, TELEMETRY_RATE_LIMITER: limiter.binding }
    const headers = { 'CF-Connecting-IP': '203.0.113.9' }
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) {
      const response = await post(
        i % 2 ? '/api/client-errors' : '/api/vitals',
        i % 2 ? clientErrors : vitals,
        { headers, bindings }
      )
      statuses.push(response.status)
      if (response.status === 429) {
        expect(response.headers.get('Retry-After')).toBe('60')
        expect(response.headers.get('Cache-Control')).toBe('no-store')
      }
    }
    expect(statuses).toEqual([204, 204, 204, 429, 429, 429, 429, 429, 429, 429])
    expect(points).toHaveLength(3 * 2)
    expect(new Set(limiter.keys)).toEqual(new Set(['telemetry:203.0.113.9']))
    // Past the limit even a body that is not JSON, or one over 4 KB, is refused as a flood, unread.
    expect((await post('/api/vitals', null, { body: '{"page":', headers, bindings })).status).toBe(
      429
    )
    expect(
      (await post('/api/vitals', null, { body: 'x'.repeat(10_000), headers, bindings })).status
    ).toBe(429)
    expect(points).toHaveLength(3 * 2)
  })

  it('limits a loopback client as any other: the site knows no exemption', async () => {
    const { points, dataset } = recordingDataset()
    const limiter = countingLimiter(1)
    const bindings = { VITALS: dataset, TELEMETRY_RATE_LIMITER: limiter.binding }
    const headers = { 'CF-Connecting-IP': '127.0.0.1' }
    expect((await post('/api/vitals', vitals, { headers, bindings })).status).toBe(204)
    expect((await post('/api/vitals', vitals, { headers, bindings })).status).toBe(429)
    expect(limiter.keys).toEqual(['telemetry:127.0.0.1', 'telemetry:127.0.0.1'])
    expect(points).toHaveLength(vitals.metrics.length)
  })

  it('refuses a cross-site beacon before it counts against the client', async () => {
    const limiter = countingLimiter(100)
    const response = await post('/api/vitals', vitals, {
      headers: { Origin: 'https://evil.example' },
      bindings: { TELEMETRY_RATE_LIMITER: limiter.binding },
    })
    expect(response.status).toBe(403)
    expect(limiter.keys).toEqual([])
  })

  it('with the configured limit, a flood from one client writes rows for at most the limit in a window, and the rest are refused', async () => {
    const { points, dataset } = recordingDataset()
    const limiter = countingLimiter(TELEMETRY_LIMIT_PER_PERIOD)
    const bindings = { VITALS: dataset, TELEMETRY_RATE_LIMITER: limiter.binding }
    const headers = { 'CF-Connecting-IP': '203.0.113.66' }
    const statuses: number[] = []
    for (let i = 0; i < 150; i++) {
      // The flood straddles the start of a new window after its 100th beacon.
      if (i === 100) limiter.nextWindow()
      statuses.push((await post('/api/vitals', vitals, { headers, bindings })).status)
    }
    const accepted = statuses.filter((status) => status === 204).length
    const refused = statuses.filter((status) => status === 429).length
    expect(accepted + refused).toBe(150)
    // 60 a minute (wrangler.toml); a flood that straddles the start of a new minute gets at most two minutes' worth.
    expect(accepted).toBeGreaterThanOrEqual(60)
    expect(accepted).toBeLessThanOrEqual(120)
    expect(statuses.slice(0, 100).filter((status) => status === 204)).toHaveLength(60)
    expect(points).toHaveLength(accepted * vitals.metrics.length)
  })

  it("never refuses a visitor's own beacons: ten page views, each with its two vitals beacons and an error, while another client floods", async () => {
    const { points, dataset } = recordingDataset()
    const bindings = { VITALS: dataset }
    const flooder = { 'CF-Connecting-IP': '203.0.113.200' }
    for (let i = 0; i < 80; i++) await post('/api/vitals', vitals, { headers: flooder, bindings })
    const visitor = { 'CF-Connecting-IP': '2001:db8::7' }
    const statuses: number[] = []
    for (let view = 0; view < 10; view++) {
      statuses.push(
        (
          await post(
            '/api/vitals',
            { page: '/en/about', metrics: [vitals.metrics[0]!] },
            { headers: visitor, bindings }
          )
        ).status
      )
      statuses.push(
        (
          await post(
            '/api/vitals',
            { page: '/en/about', metrics: [vitals.metrics[1]!] },
            { headers: visitor, bindings }
          )
        ).status
      )
      if (view % 2 === 0)
        statuses.push(
          (
            await post(
              '/api/client-errors',
              { page: '/en', errors: [clientErrors.errors[1]!] },
              { headers: visitor, bindings }
            )
          ).status
        )
    }
    expect(statuses).toEqual(Array(25).fill(204))
  })

  it('takes the largest beacon the client sends (eight metrics with the page view) within 4 KB', async () => {
    const { points, dataset } = recordingDataset()
    const names = ['LCP', 'INP', 'CLS', 'TTFB', 'FCP', 'LCP', 'INP', 'CLS'] as const
    const beacon: VitalsBeacon = {
      page: `/en/enterprises/${'p'.repeat(120)}`,
      metrics: names.map((name, i) => ({
        name,
        value: 123456.789,
        rating: 'needs-improvement',
        id: `v5-1732760000000-${'9'.repeat(13)}${i}`,
        navigationType: 'back-forward-cache',
      })),
      device: 'desktop',
      version: '5f3c2a9e-8b1d-4c7e-9a6f-0d2e4b8c1a37',
      served: { cache: 'uncached', ms: 123456 },
    }
    expect(new TextEncoder().encode(JSON.stringify(beacon)).length).toBeLessThan(4096)
    const response = await post('/api/vitals', beacon, { bindings: { VITALS: dataset } })
    expect(response.status).toBe(204)
    expect(points).toHaveLength(8)
  })

  it('writes at most one row per metric or error, and refuses a beacon with more than its schema allows', async () => {
    const { points, dataset } = recordingDataset()
    const bindings = { VITALS: dataset }
    const metric = vitals.metrics[0]!
    expect(
      (await post('/api/vitals', { page: '/', metrics: Array(8).fill(metric) }, { bindings }))
        .status
    ).toBe(204)
    expect(points).toHaveLength(8)
    expect(
      (await post('/api/vitals', { page: '/', metrics: Array(9).fill(metric) }, { bindings }))
        .status
    ).toBe(400)
    expect(
      (
        await post(
          '/api/client-errors',
          { page: '/', errors: Array(5).fill(clientErrors.errors[1]) },
          { bindings }
        )
      ).status
    ).toBe(204)
    expect(points).toHaveLength(8 + 5)
  })
})
