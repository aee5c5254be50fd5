/**
 * The visitor over Playwright: Chromium locally (`npm test`), and Playwright's own Chromium,
 * Firefox and WebKit builds on CI. One browser context at a time; a phone screen gets a context of
 * its own where the engine emulates phones (touch, `<meta name="viewport">`; Firefox cannot).
 */
import { errors, test, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { PageProblems } from '../fixtures'
import { loadedWithFonts } from './in-page'
import { screenshotFile } from './screenshots'
import { DESKTOP, type Engine, type InPage, type Screen, type Visitor } from './visitor'

/**
 * How long a full-page screenshot may wait for Chromium to paint. Twice in runs beside the other
 * lane (once a fresh clone beside a CPU burner), a page on one of the two workers stopped producing
 * frames while its scripts still ran: once the scroll through its images waited for a frame
 * (bounded since: ./in-page.ts), once its screenshot, after every check had passed, waited out the
 * test's deadline. A screenshot is for people; a missing one is noted on the test, not a failure.
 */
const SCREENSHOT_WAIT_MS = 30_000

export class PlaywrightVisitor implements Visitor {
  readonly narrowest = 0
  readonly problems: PageProblems
  private context: BrowserContext | undefined
  private page: Page | undefined
  private phone = false
  private reportCount = 0

  constructor(
    private readonly browser: Browser,
    private readonly baseURL: string,
    readonly engine: Engine
  ) {
    this.problems = new PageProblems(new URL(baseURL).origin)
  }

  get name(): string {
    return `${this.engine} ${this.browser.version()} (Playwright)`
  }

  private async pageFor(screen: Screen): Promise<Page> {
    const phone = Boolean(screen.phone) && this.engine !== 'firefox'
    if (!this.page || phone !== this.phone) {
      await this.context?.close()
      this.phone = phone
      this.context = await this.browser.newContext({
        baseURL: this.baseURL,
        viewport: { width: screen.width, height: screen.height },
        isMobile: phone,
        hasTouch: phone,
        serviceWorkers: 'block',
      })
      this.problems.watch(this.context)
      this.context.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/client-errors') this.reportCount += 1
      })
      this.page = await this.context.newPage()
    } else {
      await this.page.setViewportSize({ width: screen.width, height: screen.height })
    }
    return this.page
  }

  private current(): Page {
    if (!this.page) throw new Error('no page is open: call open() first')
    return this.page
  }

  async open(path: string, { screen = DESKTOP }: { screen?: Screen } = {}): Promise<number> {
    const page = await this.pageFor(screen)
    const response = await page.goto(path, { waitUntil: 'load' })
    await page.evaluate(loadedWithFonts)
    return response?.status() ?? 0
  }

  async resize(screen: Screen): Promise<void> {
    await this.current().setViewportSize({ width: screen.width, height: screen.height })
  }

  run<A, R>(check: InPage<A, R>, arg: A): Promise<R> {
    return this.current().evaluate(
      check as (arg: unknown) => R | Promise<R>,
      arg as unknown
    ) as Promise<R>
  }

  async click(selector: string): Promise<void> {
    await this.current().locator(selector).first().click()
  }

  async type(selector: string, text: string): Promise<void> {
    await this.current().locator(selector).first().pressSequentially(text)
  }

  async press(key: 'Escape' | 'Enter'): Promise<void> {
    await this.current().keyboard.press(key)
  }

  async url(): Promise<string> {
    return this.current().url()
  }

  async reports(): Promise<number> {
    return this.reportCount
  }

  async screenshot(name: string): Promise<string | null> {
    const file = screenshotFile(name)
    if (!file) return null
    try {
      await this.current().screenshot({ path: file, fullPage: true, timeout: SCREENSHOT_WAIT_MS })
      return file
    } catch (error) {
      if (!(error instanceof errors.TimeoutError)) throw error
      const description = `${name}: Chromium painted no frame for it within ${SCREENSHOT_WAIT_MS / 1000} s`
      test.info().annotations.push({ type: 'screenshot not taken', description })
      console.warn(`screenshot not taken: ${description}`)
      return null
    }
  }

  async close(): Promise<void> {
    await this.context?.close()
    this.context = undefined
    this.page = undefined
  }
}
