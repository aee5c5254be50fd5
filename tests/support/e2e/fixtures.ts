/**
 * What every browser test imports instead of '@playwright/test': `test` with our fixtures, `expect`,
 * and the helpers below. Specs are `*.spec.ts` in this folder; see playwright.config.ts for the server.
 *
 * Fixtures and helpers, one line each:
 * - `page`: the usual page, but console errors, uncaught page errors and failed same-origin requests
 *   (HTTP 4xx/5xx or a network failure) fail the test when it ends; `pageProblems.allow` excuses expected ones.
 * - `pageProblems`: the collector behind `page` and `noJsPage`; `allow(url, status?)` expects a failure, `take()` reads and clears.
 * - `noJsPage`: a page in its own context with JavaScript disabled (what crawlers and no-JS visitors get), watched the same way.
 * - `gotoAndHydrate(page, path)`: navigates, waits for `load`, and when the page has `[data-island]`
 *   elements also for `html[data-client-loaded="true"]`; returns the main response.
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
 * Navigates to `path` (relative to baseURL) and waits until the page is usable: the `load` event,
 * and, when the server rendered islands, the client entry's `data-client-loaded` signal.
 * Use plain `page.goto` on `noJsPage`: without JavaScript no island ever hydrates.
 */
export async function gotoAndHydrate(page: Page, path: string): Promise<Response> {
  const response = await page.goto(path, { waitUntil: 'load' })
  if (!response) throw new Error(`navigating to ${path} produced no response`)
  if ((await page.locator('[data-island]').count()) > 0) {
    await page.locator('html[data-client-loaded="true"]').waitFor({ state: 'attached' })
  }
  return response
}

/**
 * Scrolls to an island that hydrates only near the viewport (`hydrate: 'visible'` in
 * client/islands/registry.ts: the carousel) and waits until it has hydrated.
 */
export async function scrollToIsland(page: Page, name: string): Promise<void> {
  const marker = page.locator(`[data-island="${name}"]`)
  await marker.locator('xpath=..').scrollIntoViewIfNeeded()
  await page.locator(`[data-island="${name}"][data-hydrated="true"]`).waitFor({ state: 'attached' })
}

/** Saves a full-page screenshot as tests/e2e/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = screenshotFile(name)
  await page.screenshot({ path: file, fullPage: true })
  return file
}
