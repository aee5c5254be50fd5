/**
 * A page's layout work at its first load is bounded against a plain page's in the same browser and
 * the same minutes (issue 29; docs/decisions/0040-first-frame-fonts.md): the plain page of
 * src/shared/floor-page.ts, which this test serves itself at the site's origin, so nothing
 * test-only ships in the worker.
 *
 * Two figures, both read from Chromium at a phone's width in a fresh context (nothing cached), once
 * the page has loaded and the network is idle:
 * - layout + style time (CDP Performance.getMetrics), the least of LOADS loads of the page over the
 *   least of LOADS loads of the plain page: a ratio, with a bound generous enough for a busy machine
 *   (noise only ever adds time, so the least load is the one nearest the page's own cost);
 * - the synchronous font lookups the renderer made (a trace's `fonts` category: on Linux each is a
 *   round trip to the browser process in the middle of a layout): a count, the same on any machine,
 *   which the plain page, in the system font, does without.
 * The bench (`npm run bench:first-load`) prints the figures themselves; this only fails a page that
 * regresses.
 */
import type { Browser } from '@playwright/test'
import { FLOOR_PAGE_HTML, FLOOR_PAGE_PATH } from '../../src/shared/floor-page'
import { PAGE_ADDRESSES } from '../support/page-addresses'
import { expect, test } from './fixtures'

/** Layout + style time of a page at most this many times the plain page's (measured: 6-16x on 2 busy cores). */
const LAYOUT_RATIO_BOUND = 40
/**
 * Synchronous font lookups at most this many (measured: 27-30 on every page on Debian with DejaVu
 * only; 64 with a local() before every download and seven names per fallback font).
 */
const FONT_LOOKUP_BOUND = 40
const LOADS = 3
const PHONE = { width: 412, height: 823 }
const FONT_LOOKUPS = /^(WebSandboxSupportLinux::|FontDataService::)/

type Load = { layoutAndStyleMs: number; fontLookups: number }
type TraceEvent = { name: string; ph: string; pid: number; args?: { data?: { isMainFrame?: boolean; url?: string } } }

async function firstLoad(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 })
  try {
    const page = await context.newPage()
    await page.route(`**${FLOOR_PAGE_PATH}`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: FLOOR_PAGE_HTML }))
    const cdp = await context.newCDPSession(page)
    await cdp.send('Performance.enable')
    // devtools.timeline for CommitLoad, which names the renderer that loaded the page.
    await browser.startTracing(page, { categories: ['devtools.timeline', 'fonts'] })
    await page.goto(url, { waitUntil: 'networkidle', timeout: 60_000 })
    await page.waitForFunction(() => document.fonts.status === 'loaded', null, { timeout: 30_000 })
    const { metrics } = await cdp.send('Performance.getMetrics')
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }
    // Only the lookups of the renderer that loaded this page: the trace covers the whole browser.
    const commit = trace.traceEvents.find((event) => event.name === 'CommitLoad' && event.args?.data?.isMainFrame && event.args.data.url === url)
    const metric = (name: string) => metrics.find((entry) => entry.name === name)?.value ?? Number.NaN
    return {
      layoutAndStyleMs: (metric('LayoutDuration') + metric('RecalcStyleDuration')) * 1000,
      fontLookups: commit ? trace.traceEvents.filter((event) => event.pid === commit.pid && event.ph === 'X' && FONT_LOOKUPS.test(event.name)).length : Number.NaN,
    }
  } finally {
    await context.close()
  }
}

async function leastOf(browser: Browser, url: string): Promise<Load> {
  const loads: Load[] = []
  for (let load = 0; load < LOADS; load++) loads.push(await firstLoad(browser, url))
  return { layoutAndStyleMs: Math.min(...loads.map((load) => load.layoutAndStyleMs)), fontLookups: Math.min(...loads.map((load) => load.fontLookups)) }
}

test.describe('first load', () => {
  test.skip(({ browserName }) => browserName !== 'chromium', "Chromium's own counters and trace")

  for (const address of PAGE_ADDRESSES) {
    test(`${address} lays out at first load within ${LAYOUT_RATIO_BOUND}x a plain page's time, with at most ${FONT_LOOKUP_BOUND} font lookups`, async ({ browser, baseURL }) => {
      // Each load gets a fresh context (nothing cached): 2 x LOADS loads.
      test.setTimeout(120_000)
      const floor = await leastOf(browser, new URL(FLOOR_PAGE_PATH, baseURL).href)
      const site = await leastOf(browser, new URL(address, baseURL).href)
      const ratio = site.layoutAndStyleMs / floor.layoutAndStyleMs
      test.info().annotations.push({
        type: 'first load',
        description: `layout+style ${site.layoutAndStyleMs.toFixed(1)} ms, plain page ${floor.layoutAndStyleMs.toFixed(1)} ms (${ratio.toFixed(1)}x); font lookups ${site.fontLookups}, plain page ${floor.fontLookups}`,
      })
      expect(site.fontLookups, 'synchronous font lookups at first load').toBeLessThanOrEqual(FONT_LOOKUP_BOUND)
      expect(ratio, `layout+style time over the plain page's (${site.layoutAndStyleMs.toFixed(1)} ms against ${floor.layoutAndStyleMs.toFixed(1)} ms)`).toBeLessThanOrEqual(LAYOUT_RATIO_BOUND)
    })
  }
})
