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
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  test as base,
  expect,
  type BrowserContext,
  type Page,
  type Response,
} from '@playwright/test'

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

/** The image tests' two screens: a phone at DPR 2 and a 1280-px desktop at DPR 1. */
export const IMAGE_SCREENS = [
  ['375 px, DPR 2', { ...phone, deviceScaleFactor: 2 }],
  ['1280 px', { ...desktop, deviceScaleFactor: 1 }],
] as const

type Allowance = { url: string | RegExp; status: number | undefined }

/**
 * Collects what should never happen on a page of ours. Failed requests count only on the site's own
 * origin (the site loads nothing else); `Failed to load resource` console lines for such requests are
 * left to the response check, so an allowed 404 is not reported twice.
 */
export class PageProblems {
  private problems: string[] = []
  private allowances: Allowance[] = []

  constructor(private readonly origin: string) {}

  /** Expects a failure: `url` is a path ('/en/nope', matched without the query), a full URL, or a RegExp on the full URL. */
  allow(url: string | RegExp, status?: number): void {
    this.allowances.push({ url, status })
  }

  /** Returns the problems collected so far and forgets them. */
  take(): string[] {
    const taken = this.problems
    this.problems = []
    return taken
  }

  /** Starts listening on every page of `context`, popups included. */
  watch(context: BrowserContext): void {
    context.on('console', (message) => {
      if (message.type() !== 'error') return
      const where = message.location().url
      if (message.text().startsWith('Failed to load resource') && this.isOwn(where)) return
      this.problems.push(`console error: ${message.text()}${where ? ` (${where})` : ''}`)
    })
    context.on('weberror', (webError) => {
      const error = webError.error()
      this.problems.push(`page error: ${error.stack ?? error.message}`)
    })
    context.on('response', (response) => {
      const url = response.url()
      if (response.status() < 400 || !this.isOwn(url) || this.isAllowed(url, response.status())) return
      this.problems.push(`HTTP ${response.status()}: ${response.request().method()} ${url}`)
    })
    context.on('requestfailed', (request) => {
      const failure = request.failure()?.errorText ?? 'unknown error'
      // Aborted: a navigation replaced the page while it was still loading; not the site's fault.
      if (failure === 'net::ERR_ABORTED' || !this.isOwn(request.url()) || this.isAllowed(request.url())) return
      this.problems.push(`request failed (${failure}): ${request.method()} ${request.url()}`)
    })
  }

  /** Throws one error listing everything collected, and forgets it. */
  assertNone(): void {
    const problems = this.take()
    if (problems.length > 0) {
      throw new Error(
        `the page reported ${problems.length} problem(s); call pageProblems.allow(url, status) if one is expected:\n` +
          problems.map((problem) => `  - ${problem}`).join('\n'),
      )
    }
  }

  private isOwn(url: string): boolean {
    try {
      return new URL(url).origin === this.origin
    } catch {
      return false
    }
  }

  private isAllowed(url: string, status?: number): boolean {
    const { pathname } = new URL(url)
    return this.allowances.some((allowance) => {
      if (allowance.status !== undefined && status !== undefined && allowance.status !== status) return false
      if (allowance.url instanceof RegExp) return allowance.url.test(url)
      return allowance.url.startsWith('/') ? allowance.url === pathname : allowance.url === url
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

  noJsPage: async ({ browser, baseURL, viewport, isMobile, hasTouch, locale, pageProblems }, use) => {
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

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url))

/** Saves a full-page screenshot as tests/e2e/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const file = path.join(SCREENSHOTS, `${name.replace(/[^\w.-]+/g, '-')}.png`)
  await page.screenshot({ path: file, fullPage: true })
  return file
}
