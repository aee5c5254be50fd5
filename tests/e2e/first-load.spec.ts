/**
 * A page's layout work at its first load is bounded against a plain page's in the same browser and
 * the same minutes (issue 29; docs/decisions/0019-first-frame-fonts.md): the plain page of
 * src/shared/floor-page.ts, which this test serves itself at the site's origin, so nothing
 * test-only ships in the worker.
 *
 * Two figures, both read from a Chromium trace of a load at a phone's width in a fresh context
 * (nothing cached), until the page has loaded and the network is idle (scripts/lib/first-load-trace.mjs):
 * - layout and style recalculation in CPU time (the trace's thread time: a busy machine stretches
 *   wall time many times over, CPU time far less), the least of LOADS loads of the page over the
 *   least of LOADS loads of the plain page: a ratio, with a bound generous enough for a busy machine;
 * - the synchronous font lookups the renderer made (on Linux each is a round trip to the browser
 *   process in the middle of a layout): a count, the same on any machine.
 * The bench (`npm run bench:first-load`) prints the figures themselves; this only fails a page that
 * regresses.
 */
import type { Browser } from '@playwright/test'
import { FIRST_LOAD_TRACE_CATEGORIES, firstLoadWork } from '../../scripts/lib/first-load-trace.mjs'
import { FLOOR_PAGE_HTML, FLOOR_PAGE_PATH } from '../../src/shared/floor-page'
import { PAGE_ADDRESSES } from '../support/page-addresses'
import { expect, gotoAndHydrate, phone, test } from './fixtures'

/** Layout + style CPU time at most this many times the plain page's (measured: 8-18x on 2 busy cores). */
const LAYOUT_RATIO_BOUND = 40
/**
 * Synchronous font lookups at most this many (measured: 25-30 on every page on Debian with DejaVu
 * only; 54-64 with a local() before every download and seven names per fallback font).
 */
const FONT_LOOKUP_BOUND = 40
const LOADS = 3
const PHONE = { width: 412, height: 823 }

type Load = { layoutStyleCpuMs: number; fontLookups: number }

async function firstLoad(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 1.75,
  })
  try {
    const page = await context.newPage()
    await page.route(`**${FLOOR_PAGE_PATH}`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: FLOOR_PAGE_HTML })
    )
    await browser.startTracing(page, { categories: FIRST_LOAD_TRACE_CATEGORIES })
    await page.goto(url, { waitUntil: 'networkidle', timeout: 60_000 })
    await page.waitForFunction(() => document.fonts.status === 'loaded', null, { timeout: 30_000 })
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
      traceEvents: unknown[]
    }
    return firstLoadWork(trace.traceEvents, url)
  } finally {
    await context.close()
  }
}

/** The least of LOADS loads of each figure: noise only ever adds work. */
async function leastOf(browser: Browser, url: string): Promise<Load> {
  const loads: Load[] = []
  for (let load = 0; load < LOADS; load++) loads.push(await firstLoad(browser, url))
  const least = (values: number[]) => Math.min(...values.filter((value) => !Number.isNaN(value)))
  return {
    layoutStyleCpuMs: least(loads.map((load) => load.layoutStyleCpuMs)),
    fontLookups: least(loads.map((load) => load.fontLookups)),
  }
}

test.describe('first load', () => {
  test.skip(({ browserName }) => browserName !== 'chromium', "Chromium's own counters and trace")

  for (const address of PAGE_ADDRESSES) {
    test(`${address} lays out at first load within ${LAYOUT_RATIO_BOUND}x a plain page's CPU time, with at most ${FONT_LOOKUP_BOUND} font lookups`, async ({
      browser,
      baseURL,
    }) => {
      // Each load gets a fresh context (nothing cached): 2 x LOADS loads.
      test.setTimeout(120_000)
      const floor = await leastOf(browser, new URL(FLOOR_PAGE_PATH, baseURL).href)
      const site = await leastOf(browser, new URL(address, baseURL).href)
      const ratio = site.layoutStyleCpuMs / floor.layoutStyleCpuMs
      const figures = `layout+style CPU ${site.layoutStyleCpuMs.toFixed(1)} ms against the plain page's ${floor.layoutStyleCpuMs.toFixed(1)} ms (${ratio.toFixed(1)}x); font lookups ${site.fontLookups}, plain page ${floor.fontLookups}`
      test.info().annotations.push({ type: 'first load', description: figures })
      expect(
        site.fontLookups,
        `synchronous font lookups at first load: ${figures}`
      ).toBeLessThanOrEqual(FONT_LOOKUP_BOUND)
      expect(ratio, `layout+style CPU time over the plain page's: ${figures}`).toBeLessThanOrEqual(
        LAYOUT_RATIO_BOUND
      )
    })
  }
})

test.describe('the first frame', () => {
  test.use(phone)

  // The pages with parts two screens down on a phone (on the others, the part after the banner is
  // a list that starts on the first screen). The home pages' carousel is one of them.
  for (const address of ['/', '/en/about', '/ru']) {
    test(`${address} lays out its banner first, and the parts below the screen only once they near it`, async ({
      page,
    }) => {
      await gotoAndHydrate(page, address)
      // Every part of <main> after the banner but the one with the toaster
      // (docs/decisions/0026-islands-skipped-away-from-the-screen.md).
      const farParts = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('main > *')]
            .slice(1)
            .filter((part) => !part.querySelector('.toaster'))
            .filter((part) => part.getBoundingClientRect().top > 2 * innerHeight)
            .map((part) => ({
              part: part.className,
              island: part.querySelector('[data-island]')?.getAttribute('data-island') ?? null,
              // The part itself is laid out (as a box of its remembered or guessed height); its contents are not.
              rendered: (part.firstElementChild ?? part).checkVisibility({
                contentVisibilityAuto: true,
              }),
            }))
        )
      const atLoad = await farParts()
      expect(atLoad.length, 'parts two screens below the top').toBeGreaterThan(0)
      expect(
        atLoad.filter((part) => part.rendered),
        'rendered at load'
      ).toEqual([])
      if (address !== '/en/about') expect(atLoad.map((part) => part.island)).toContain('carousel')
      // Each part, brought to the screen, is rendered (a part left behind may be skipped again).
      for (const { part } of atLoad) {
        const onScreen = () =>
          page.evaluate((part) => {
            const element = [...document.querySelectorAll('main > *')].find(
              (candidate) => candidate.className === part
            )
            element?.scrollIntoView({ behavior: 'instant' })
            return (element?.firstElementChild ?? element)?.checkVisibility({
              contentVisibilityAuto: true,
            })
          }, part)
        await expect.poll(onScreen, { message: `${part} rendered once on screen` }).toBe(true)
      }
    })
  }
})

test.describe("a page's fonts", () => {
  test.use(phone)

  // One page in each language, each with the subsets its text is set in (src/views/assets.tsx).
  for (const [address, subsets] of [
    ['/', ['latin', 'armenian']],
    ['/en/about', ['latin']],
    ['/ru/contact-us', ['latin', 'cyrillic']],
  ] as const) {
    test(`${address} downloads each font it preloads once, and its text is set in them`, async ({
      page,
    }) => {
      await gotoAndHydrate(page, address)
      await expect
        .poll(() => page.evaluate(() => document.fonts.status), { timeout: 30_000 })
        .toBe('loaded')
      const { preloaded, downloaded, faces } = await page.evaluate(() => ({
        preloaded: [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="font"]')]
          .map((link) => new URL(link.href).pathname)
          .sort(),
        downloaded: performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname)
          .filter((path) => path.startsWith('/assets/fonts/'))
          .sort(),
        // The downloaded faces, not the metric-matched fallbacks (local() faces named "… Fallback …").
        faces: [...document.fonts].filter(
          (face) => face.status === 'loaded' && !face.family.includes('Fallback')
        ).length,
      }))
      expect(
        preloaded.map((path) => subsets.some((subset) => path.includes(`-${subset}-wght-`)))
      ).toEqual(preloaded.map(() => true))
      expect(preloaded).toHaveLength(subsets.length)
      // A preload the @font-face could not reuse (another URL, another CORS mode) is a second download.
      expect(downloaded).toEqual(preloaded)
      expect(faces).toBe(subsets.length)
    })
  }
})
