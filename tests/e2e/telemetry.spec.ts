/**
 * Client telemetry in a real browser (client/telemetry): the reporter is a chunk of its own that
 * loads only after the load event, web vitals reach POST /api/vitals when the page is left, and
 * an uncaught error reaches POST /api/client-errors. The test server runs the site inside the
 * harness worker (package.json `e2e:server`, scripts/lib/harness-worker/): each beacon is answered 200 with the Analytics Engine data points
 * the worker wrote for it, which proves it passed the same-origin, size and schema checks and
 * shows what the dataset got. A vitals beacon carries the page view's device class, the version
 * stamped into the page and how the page was served (decision 0030).
 */
import type { Page, Request } from '@playwright/test'
import { expect, gotoLoaded, phone, test } from '../support/e2e/fixtures'

const REPORTER_CHUNK = /\/assets\/chunks\/reporter-[\w-]+\.js$/

function beaconOf(request: Request): {
  page: string
  metrics?: { name: string }[]
  errors?: { kind: string; message: string }[]
  device?: string
  version?: string
  served?: { cache: string; ms?: number }
} {
  return JSON.parse(request.postData() ?? '{}')
}

type DataPoint = { indexes: string[]; blobs: string[]; doubles: number[] }

/**
 * Settles the page's vitals and sends them as a visitor does: once the reporter is in, a key press
 * settles LCP (web-vitals listens for trusted input only), and hiding the page sends the queue,
 * what the browser does when the tab is switched away or closed (a Playwright navigation would end
 * the page before its beacons are observed).
 */
async function leavePage(page: Page): Promise<void> {
  // The reporter's chunk imports chunks of its own (web-vitals, shared modules): it starts only
  // once they have all arrived, so no request may be pending before the page is left.
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)))
  await page.keyboard.press('Shift')
  await page.evaluate(
    () => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 1000 }))
  )
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' })
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }))
  })
}

/** The page's first vitals beacon and the data points the worker wrote for it, once the page is left. */
async function firstVitalsBeacon(page: Page) {
  const answer = page.waitForResponse((response) => response.url().endsWith('/api/vitals'))
  await leavePage(page)
  const response = await answer
  expect(response.status()).toBe(200)
  const { points } = (await response.json()) as { points: DataPoint[] }
  return { beacon: beaconOf(response.request()), points }
}

test('loads the reporter chunk after the load event, not before', async ({ page }) => {
  const order: string[] = []
  page.on('load', () => order.push('load'))
  page.on('request', (request) => {
    if (REPORTER_CHUNK.test(request.url())) order.push('reporter')
  })
  const reporter = page.waitForResponse(REPORTER_CHUNK)
  await gotoLoaded(page, '/en/about')
  expect((await reporter).status()).toBe(200)
  expect(order).toEqual(['load', 'reporter'])
})

test('sends LCP, CLS, FCP and TTFB of a page to /api/vitals when the page is hidden', async ({
  page,
}) => {
  const beacons: Promise<number>[] = []
  const metrics = new Set<string>()
  page.on('request', (request) => {
    if (!request.url().endsWith('/api/vitals')) return
    const sent = beaconOf(request)
    expect(sent.page).toBe('/ru/enterprises')
    for (const metric of sent.metrics ?? []) metrics.add(metric.name)
    beacons.push(request.response().then((response) => response?.status() ?? 0))
  })
  const reporter = page.waitForResponse(REPORTER_CHUNK)
  await gotoLoaded(page, '/ru/enterprises')
  await reporter
  await leavePage(page)
  await expect
    .poll(() => [...metrics].sort())
    .toEqual(expect.arrayContaining(['CLS', 'FCP', 'LCP', 'TTFB']))
  expect(await Promise.all(beacons)).toEqual(beacons.map(() => 200))
})

test("a page's vitals beacon carries its device class, the version that rendered it and how it was served, and each data point has them", async ({
  page,
}) => {
  const reporter = page.waitForResponse(REPORTER_CHUNK)
  const response = await gotoLoaded(page, '/en/about')
  await reporter
  const version = await page.locator('meta[name="deployment-version"]').getAttribute('content')
  expect(version).toMatch(/^[A-Za-z0-9-]{1,64}$/)
  // The worker's own Server-Timing: the page cache's level, and a duration.
  const header = (await response.allHeaders())['server-timing'] ?? ''
  const level = /^cache;desc=(hit|miss|uncached)\b/.exec(header)?.[1]
  expect(level, header).toBeDefined()

  const { beacon, points } = await firstVitalsBeacon(page)
  expect(beacon).toMatchObject({
    page: '/en/about',
    device: 'desktop',
    version,
    served: { cache: level, ms: expect.any(Number) },
  })
  expect(points.length).toBe(beacon.metrics?.length)
  for (const point of points) {
    expect(point.blobs.slice(0, 5)).toEqual([
      'vital',
      point.indexes[0],
      expect.any(String),
      '/about',
      'en',
    ])
    expect(point.blobs.slice(7)).toEqual(['desktop', version, level])
    expect(point.doubles[1]).toBe(beacon.served?.ms)
  }
})

test.describe('on a phone', () => {
  test.use(phone)

  test('the beacon says phone', async ({ page }) => {
    const reporter = page.waitForResponse(REPORTER_CHUNK)
    await gotoLoaded(page, '/ru/about')
    await reporter
    const { beacon, points } = await firstVitalsBeacon(page)
    expect(beacon.device).toBe('phone')
    expect(points.map((point) => point.blobs[7])).toEqual(points.map(() => 'phone'))
  })
})

test('reports an uncaught error to /api/client-errors', async ({ page, pageProblems }) => {
  const reporter = page.waitForResponse(REPORTER_CHUNK)
  await gotoLoaded(page, '/')
  await reporter
  // The reporter listens for errors once its chunks have arrived and run, which no event of the
  // page tells: an error thrown before then is only the page's. So the error is thrown again, a
  // second apart, until one is reported.
  const reported = page.waitForResponse((response) => response.url().endsWith('/api/client-errors'))
  let thrown = 0
  await expect
    .poll(
      async () => {
        thrown += 1
        await page.evaluate(() => {
          setTimeout(() => {
            throw new Error('telemetry e2e check')
          })
        })
        return Promise.race([
          reported.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000)),
        ])
      },
      { timeout: 60_000, intervals: [0] }
    )
    .toBe(true)
  const response = await reported
  expect(response.status()).toBe(200)
  expect(beaconOf(response.request())).toMatchObject({
    page: '/',
    errors: [{ kind: 'error', message: expect.stringContaining('telemetry e2e check') }],
  })
  // The errors above are the point of this test, not problems of the page: each of them, once.
  const problems: string[] = []
  await expect.poll(() => problems.push(...pageProblems.take()) && problems.length).toBe(thrown)
  expect(problems).toEqual(problems.map(() => expect.stringContaining('telemetry e2e check')))
})

test('reports an island whose chunk fails to load as a chunk-load failure', async ({
  page,
  pageProblems,
}) => {
  await page.route(/\/assets\/language-dropdown-[\w-]+\.js$/, (route) =>
    route.abort('connectionfailed')
  )
  const report = page.waitForResponse((response) => response.url().endsWith('/api/client-errors'))
  await gotoLoaded(page, '/en/about')
  // The visitor reaches for the dropdown, which starts its hydration (client/triggers.ts).
  await page.locator('.lang-dropdown__button').hover()
  const response = await report
  expect(response.status()).toBe(200)
  expect(beaconOf(response.request())).toMatchObject({
    page: '/en/about',
    errors: [
      {
        kind: 'error',
        message: expect.stringContaining(
          'chunk-load failure: island "language-dropdown" (because: '
        ),
      },
    ],
  })
  // The page carries on: other islands hydrate (a scroll starts the navbar's, which then marks
  // itself sticky), and the dropdown keeps the server's links.
  await page.mouse.wheel(0, 600)
  await expect(page.locator('.navbar')).toHaveClass(/\bis-sticky\b/)
  await expect(page.locator('.lang-dropdown__link')).toHaveCount(3)
  // The failed request and its console error are the point of this test.
  expect(pageProblems.take()).toEqual(
    expect.arrayContaining([expect.stringContaining('language-dropdown')])
  )
})
