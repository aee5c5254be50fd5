/**
 * The beacon endpoints (src/routes/telemetry.ts): same-origin, size-limited, schema-checked beacons
 * become Analytics Engine data points, or log lines when no dataset is bound.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Bindings } from '../../src/env'
import worker from '../../src/index'
import type { ClientErrorsBeacon, VitalsBeacon } from '../../src/shared/telemetry'

afterEach(() => {
  vi.restoreAllMocks()
})

const ORIGIN = 'https://www.erebuni.example'

function fakeDataset() {
  const points: AnalyticsEngineDataPoint[] = []
  const dataset: AnalyticsEngineDataset = { writeDataPoint: (point) => void points.push(point ?? {}) }
  return { points, dataset }
}

type PostOptions = { headers?: Record<string, string>; bindings?: Partial<Bindings>; body?: BodyInit }

/**
 * POSTs `beacon` as navigator.sendBeacon does with a string: text/plain, from a page of the site.
 * A header given as '' is left out.
 */
async function post(path: string, beacon: unknown, { headers, bindings, body }: PostOptions = {}) {
  const ctx = createExecutionContext()
  const request = new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: Object.entries({ 'Content-Type': 'text/plain;charset=UTF-8', Origin: ORIGIN, ...headers }).filter(([, value]) => value !== ''),
    body: body ?? JSON.stringify(beacon),
  })
  const response = await worker.fetch(request, { ...(env as unknown as Bindings), ...bindings }, ctx)
  await waitOnExecutionContext(ctx)
  return response
}

const vitals: VitalsBeacon = {
  page: '/ru/about',
  metrics: [
    { name: 'LCP', value: 1234.5, rating: 'good', id: 'v5-1', navigationType: 'navigate' },
    { name: 'CLS', value: 0.12, rating: 'needs-improvement', id: 'v5-2', navigationType: 'navigate' },
  ],
}

const clientErrors: ClientErrorsBeacon = {
  page: '/en/contact-us',
  errors: [
    { kind: 'error', message: 'TypeError: x is undefined', source: `${ORIGIN}/assets/main.js`, line: 1, column: 420, stack: 'at f (main.js:1:420)' },
    { kind: 'unhandledrejection', message: 'Failed to fetch' },
  ],
}

describe('POST /api/vitals', () => {
  it('writes one data point per metric with its page key and language', async () => {
    const { points, dataset } = fakeDataset()
    const response = await post('/api/vitals', vitals, { bindings: { VITALS: dataset } })
    expect(response.status).toBe(204)
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(points).toEqual([
      { indexes: ['LCP'], blobs: ['vital', 'LCP', 'good', '/about', 'ru', 'navigate', ''], doubles: [1234.5] },
      { indexes: ['CLS'], blobs: ['vital', 'CLS', 'needs-improvement', '/about', 'ru', 'navigate', ''], doubles: [0.12] },
    ])
  })

  it('logs the data points when no dataset is bound', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    const beacon = { page: '/', metrics: [{ name: 'TTFB', value: 80, rating: 'good', id: 'a' }] }
    const response = await post('/api/vitals', beacon, { bindings: { VITALS: undefined } })
    expect(response.status).toBe(204)
    expect(log).toHaveBeenCalledWith(`telemetry ${JSON.stringify({ indexes: ['TTFB'], blobs: ['vital', 'TTFB', 'good', '/', 'hy', '', ''], doubles: [80] })}`)
  })

  it('accepts a beacon sent as application/json, or without Origin from the same site', async () => {
    const { points, dataset } = fakeDataset()
    const bindings = { VITALS: dataset }
    expect((await post('/api/vitals', vitals, { bindings, headers: { 'Content-Type': 'application/json' } })).status).toBe(204)
    const noOrigin = await post('/api/vitals', vitals, { bindings, headers: { Origin: '', 'Sec-Fetch-Site': 'same-origin' } })
    expect(noOrigin.status).toBe(204)
    expect(points).toHaveLength(4)
  })

  it.each([
    ['another site', { Origin: 'https://evil.example' }],
    ['another scheme of this host', { Origin: 'http://www.erebuni.example' }],
    ['no Origin and a cross-site fetch', { Origin: '', 'Sec-Fetch-Site': 'cross-site' }],
  ])('refuses a beacon from %s with 403', async (_, headers) => {
    const { points, dataset } = fakeDataset()
    const response = await post('/api/vitals', vitals, { headers, bindings: { VITALS: dataset } })
    expect(response.status).toBe(403)
    expect(points).toHaveLength(0)
  })

  it('refuses a body over 4 KB with 413, with or without Content-Length', async () => {
    const { points, dataset } = fakeDataset()
    const big = { ...vitals, page: `/${'a'.repeat(5000)}` }
    expect((await post('/api/vitals', big, { bindings: { VITALS: dataset } })).status).toBe(413)
    const stream = new Blob([JSON.stringify(big)]).stream()
    expect((await post('/api/vitals', null, { body: stream, bindings: { VITALS: dataset } })).status).toBe(413)
    expect(points).toHaveLength(0)
  })

  it.each([
    ['not JSON', '{"page":'],
    ['an unknown metric', JSON.stringify({ page: '/', metrics: [{ name: 'FID', value: 1, rating: 'good', id: 'a' }] })],
    ['a negative value', JSON.stringify({ page: '/', metrics: [{ name: 'LCP', value: -1, rating: 'good', id: 'a' }] })],
    ['an unknown rating', JSON.stringify({ page: '/', metrics: [{ name: 'LCP', value: 1, rating: 'great', id: 'a' }] })],
    ['no metrics', JSON.stringify({ page: '/', metrics: [] })],
    ['too many metrics', JSON.stringify({ page: '/', metrics: Array(9).fill({ name: 'CLS', value: 0, rating: 'good', id: 'a' }) })],
    ['a page that is not a path', JSON.stringify({ ...vitals, page: 'https://evil.example/' })],
  ])('refuses %s with 400', async (_, body) => {
    const { points, dataset } = fakeDataset()
    const response = await post('/api/vitals', null, { body, bindings: { VITALS: dataset } })
    expect(response.status).toBe(400)
    expect(points).toHaveLength(0)
  })
})

describe('POST /api/client-errors', () => {
  it('writes one data point per error', async () => {
    const { points, dataset } = fakeDataset()
    const response = await post('/api/client-errors', clientErrors, { bindings: { VITALS: dataset } })
    expect(response.status).toBe(204)
    expect(points).toEqual([
      {
        indexes: ['client-error'],
        blobs: ['client-error', 'error', 'TypeError: x is undefined', `${ORIGIN}/assets/main.js`, '/contact-us', 'en', 'at f (main.js:1:420)', ''],
        doubles: [1, 420],
      },
      { indexes: ['client-error'], blobs: ['client-error', 'unhandledrejection', 'Failed to fetch', '', '/contact-us', 'en', '', ''], doubles: [0, 0] },
    ])
  })

  it('refuses a cross-site report and a malformed one', async () => {
    const { points, dataset } = fakeDataset()
    const bindings = { VITALS: dataset }
    expect((await post('/api/client-errors', clientErrors, { bindings, headers: { Origin: 'https://evil.example' } })).status).toBe(403)
    const tooMany = { page: '/', errors: Array(6).fill({ kind: 'error', message: 'x' }) }
    expect((await post('/api/client-errors', tooMany, { bindings })).status).toBe(400)
    expect((await post('/api/client-errors', { page: '/', errors: [{ kind: 'warning', message: 'x' }] }, { bindings })).status).toBe(400)
    expect((await post('/api/client-errors', { page: '/', errors: [{ kind: 'error', message: 'x'.repeat(301) }] }, { bindings })).status).toBe(400)
    expect(points).toHaveLength(0)
  })
})
