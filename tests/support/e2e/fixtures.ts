/**
 * What every browser test imports instead of '@playwright/test': `test` with our fixtures, `expect`,
 * and the helpers below. Specs are `*.spec.ts` in this folder; see playwright.config.ts for the server.
 *
 * Fixtures and helpers, one line each:
 * - `page`: the usual page, but console errors, uncaught page errors and failed same-origin requests
 *   (HTTP 4xx/5xx or a network failure) fail the test when it ends; `pageProblems.allow` excuses expected ones.
 * - `pageProblems`: the collector behind `page` and `noJsPage`; `allow(url, status?)` expects a failure, `take()` reads and clears.
 * - `noJsPage`: a page in its own context with JavaScript disabled (what crawlers and no-JS visitors get), watched the same way.
 * - `gotoLoaded(page, path)`: navigates and waits for the `load` event (the client entry has run by
 *   then); returns the main response.
 * - `scrollToCarousel(page)`: scrolls the carousel on screen and waits until Swiper has taken it over.
 * - `phone` / `desktop`: context presets for `test.use(phone)` (375x812 touch, 1280x800); `viewports` holds the sizes.
 * - `screenshot(page, name)`: a full-page PNG in tests/e2e/screenshots/<name>.png (git-ignored) for humans to look at.
 */
import {
  test as base,
  expect,
  type BrowserContext,
  type Page,
  type Response,
} from '@playwright/test'
import { isAborted, ProblemLog } from './engines/problem-log'
import { screenshotFile } from './engines/screenshots'

export { expect }
export type { Page, Response }

export const viewports = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1280, height: 800 },
} as const

/** `test.use(phone)`: a 375x812 touch screen that honours `<meta name="viewport">`. */
export const phone = { viewport: viewports.phone, isMobile: true, hasTouch: true }

/** `test.use(desktop)`: 1280x800, the default of playwright.config.ts. */
export const desktop = { viewport: viewports.desktop, isMobile: false, hasTouch: false }

/**
 * How long the test servers' image route waits for a transform (IMAGE_TRANSFORM_TIMEOUT_MS, set by
 * playwright.config.ts): a test that scrolls through images waits this long, and some more, for
 * the images in view.
 */
export const IMAGE_WAIT_MS = Number(process.env.E2E_IMAGE_WAIT_MS) || 20_000

/** The image tests' two screens: a phone at DPR 2 and a 1280-px desktop at DPR 1. */
export const IMAGE_SCREENS = [
  ['375 px, DPR 2', { ...phone, deviceScaleFactor: 2 }],
  ['1280 px', { ...desktop, deviceScaleFactor: 1 }],
] as const

/**
 * The problem log (./engines/problem-log.ts) fed by Playwright's events: every page of a context,
 * popups included.
 */
export class PageProblems extends ProblemLog {
  /** Starts listening on every page of `context`, popups included. */
  watch(context: BrowserContext): void {
    context.on('console', (message) => {
      if (message.type() === 'error') this.consoleError(message.text(), message.location().url)
    })
    context.on('weberror', (webError) => {
      const error = webError.error()
      this.pageError(error.stack ?? error.message)
    })
    context.on('response', (response) =>
      this.response(response.request().method(), response.url(), response.status())
    )
    context.on('requestfailed', (request) => {
      const failure = request.failure()?.errorText ?? 'unknown error'
      this.requestFailed(request.method(), request.url(), failure, isAborted(failure))
    })
  }
}

type Fixtures = {
  pageProblems: PageProblems
  noJsPage: Page
}

export const test = base.extend<Fixtures>({
  pageProblems: async ({ baseURL }, use) => {
    if (!baseURL) throw new Error('baseURL is not set; run through playwright.config.ts')
    const problems = new PageProblems(new URL(baseURL).origin)
    await use(problems)
    // Runs after `page` and `noJsPage` closed, so late errors are in.
    problems.assertNone()
  },

  page: async ({ page, pageProblems }, use) => {
    pageProblems.watch(page.context())
    await use(page)
  },

  noJsPage: async (
    { browser, baseURL, viewport, isMobile, hasTouch, locale, pageProblems },
    use
  ) => {
    const context = await browser.newContext({
      baseURL,
      viewport,
      isMobile,
      hasTouch,
      locale,
      serviceWorkers: 'block',
      javaScriptEnabled: false,
    })
    pageProblems.watch(context)
    const page = await context.newPage()
    await use(page)
    await context.close()
  },
})

/**
 * Navigates to `path` (relative to baseURL) and waits for the `load` event. The client entry is a
 * module script, which runs before DOMContentLoaded: by `load` it has decided the language offer
 * and armed the islands. An island hydrates later, on its own trigger (client/islands/registry.ts),
 * so a test that needs one hydrated waits for what its hydration shows (an open menu, a toast,
 * Swiper's controls), and a click on an interaction island's button is held until it has hydrated
 * (client/triggers.ts), so Playwright's auto-waiting `expect` on the click's result is enough.
 */
export async function gotoLoaded(page: Page, path: string): Promise<Response> {
  const response = await page.goto(path, { waitUntil: 'load' })
  if (!response) throw new Error(`navigating to ${path} produced no response`)
  return response
}

/**
 * Scrolls the carousel on screen, which hydrates it (`hydrate: ['visible']` in
 * client/islands/registry.ts), and waits until Swiper has taken the list over (its own
 * `swiper-initialized` class, which its layout and controls come with).
 */
export async function scrollToCarousel(page: Page): Promise<void> {
  const carousel = page.locator('.carousel')
  await carousel.scrollIntoViewIfNeeded()
  await expect(carousel).toHaveClass(/\bswiper-initialized\b/)
}

/**
 * Saves a full-page screenshot as tests/e2e/screenshots/<name>.png and returns its path, when the
 * run takes screenshots (./engines/screenshots.ts); else null.
 */
export async function screenshot(page: Page, name: string): Promise<string | null> {
  const file = screenshotFile(name)
  if (file) await page.screenshot({ path: file, fullPage: true })
  return file
}
