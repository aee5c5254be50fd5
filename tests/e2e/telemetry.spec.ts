/**
 * Client telemetry in a real browser (client/telemetry): the reporter is a chunk of its own that
 * loads only after the load event, web vitals reach POST /api/vitals when the page is left, and
 * an uncaught error reaches POST /api/client-errors. The worker's answers (204) prove the beacons
 * pass its same-origin, size and schema checks.
 */
import type { Request } from '@playwright/test'
import { expect, gotoAndHydrate, test } from './fixtures'

const REPORTER_CHUNK = /\/assets\/chunks\/reporter-[\w-]+\.js$/

function beaconOf(request: Request): {
  page: string
  metrics?: { name: string }[]
  errors?: { kind: string; message: string }[]
} {
  return JSON.parse(request.postData() ?? '{}')
}

test('loads the reporter chunk after the load event, not before', async ({ page }) => {
  const order: string[] = []
  page.on('load', () => order.push('load'))
  page.on('request', (request) => {
    if (REPORTER_CHUNK.test(request.url())) order.push('reporter')
  })
  const reporter = page.waitForResponse(REPORTER_CHUNK)
  await gotoAndHydrate(page, '/en/about')
  expect((await reporter).status()).toBe(200)
  expect(order).toEqual(['load', 'reporter'])
})

test('sends LCP, CLS and TTFB of a page to /api/vitals when the page is hidden', async ({
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
  await gotoAndHydrate(page, '/ru/enterprises')
  await reporter
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)))
  // A visitor's first key press settles LCP (web-vitals listens for trusted input only) ...
  await page.keyboard.press('Shift')
  await page.evaluate(
    () => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 1000 }))
  )
  // ... and hiding the page sends the queue: what the browser does when the tab is switched away
  // or closed (a Playwright navigation would end the page before its beacons are observed).
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' })
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }))
  })
  await expect
    .poll(() => [...metrics].sort())
    .toEqual(expect.arrayContaining(['CLS', 'LCP', 'TTFB']))
  expect(await Promise.all(beacons)).toEqual(beacons.map(() => 204))
})

test('reports an uncaught error to /api/client-errors', async ({ page, pageProblems }) => {
  const reporter = page.waitForResponse(REPORTER_CHUNK)
  await gotoAndHydrate(page, '/')
  await reporter
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)))
  const report = page.waitForResponse((response) => response.url().endsWith('/api/client-errors'))
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('telemetry e2e check')
    })
  })
  const response = await report
  expect(response.status()).toBe(204)
  expect(beaconOf(response.request())).toMatchObject({
    page: '/',
    errors: [{ kind: 'error', message: expect.stringContaining('telemetry e2e check') }],
  })
  // The error above is the point of this test, not a problem of the page.
  expect(pageProblems.take()).toEqual([expect.stringContaining('telemetry e2e check')])
})

test('reports an island whose chunk fails to load as a chunk-load failure', async ({
  page,
  pageProblems,
}) => {
  await page.route(/\/assets\/language-dropdown-[\w-]+\.js$/, (route) =>
    route.abort('connectionfailed')
  )
  const report = page.waitForResponse((response) => response.url().endsWith('/api/client-errors'))
  await gotoAndHydrate(page, '/en/about')
  // The visitor reaches for the dropdown, which starts its hydration (client/triggers.ts).
  await page.locator('.lang-dropdown__button').hover()
  const response = await report
  expect(response.status()).toBe(204)
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
  // The page carries on: other islands hydrate (a scroll starts the navbar's), and the dropdown
  // still works as a plain link list.
  await page.mouse.wheel(0, 600)
  await expect(page.locator('[data-island="navbar-menu"]')).toHaveAttribute('data-hydrated', 'true')
  await expect(page.locator('[data-island="language-dropdown"]')).not.toHaveAttribute(
    'data-hydrated',
    'true'
  )
  // The failed request and its console error are the point of this test.
  expect(pageProblems.take()).toEqual(
    expect.arrayContaining([expect.stringContaining('language-dropdown')])
  )
})
