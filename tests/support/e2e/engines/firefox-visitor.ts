/**
 * The visitor over Puppeteer and WebDriver BiDi: Debian's firefox-esr, for `npm run test:engines`.
 * (Playwright drives only its own Firefox build: the stock one lacks commands it needs.) One
 * browser per test worker (./engine-fixtures.ts); each visit is a browser context of its own.
 * Firefox emulates no phone: a phone screen is its width and height.
 */
import type { Browser, BrowserContext, Page } from 'puppeteer-core'
import { loadedWithFonts } from './in-page'
import { isAborted, ProblemLog } from './problem-log'
import { screenshotFile } from './screenshots'
import { DESKTOP, type InPage, type Screen, type Visitor } from './visitor'

/** Firefox's status code of a load it aborted itself (0x804B0002). */
const NS_BINDING_ABORTED = 2152398850

export class FirefoxVisitor implements Visitor {
  readonly engine = 'firefox'
  readonly narrowest = 0
  readonly problems: ProblemLog
  private context: BrowserContext | undefined
  private page: Page | undefined
  private reportCount = 0

  constructor(
    private readonly browser: Browser,
    private readonly baseURL: string,
    private readonly version: string
  ) {
    this.problems = new ProblemLog(new URL(baseURL).origin)
  }

  get name(): string {
    return `firefox ${this.version} (Puppeteer, WebDriver BiDi)`
  }

  private async pageFor(screen: Screen): Promise<Page> {
    if (!this.page) {
      this.context = await this.browser.createBrowserContext()
      const page = await this.context.newPage()
      page.on('console', (message) => {
        if (message.type() === 'error')
          this.problems.consoleError(
            consoleText(message.text(), message.args().length),
            message.location().url ?? ''
          )
      })
      page.on('pageerror', (error) => {
        const text = error instanceof Error ? (error.stack ?? error.message) : String(error)
        // A font download the browser cut short (a navigation), which Firefox logs as an error: NS_BINDING_ABORTED.
        if (!text.includes(`status=${NS_BINDING_ABORTED}`)) this.problems.pageError(text)
      })
      page.on('response', (response) =>
        this.problems.response(response.request().method(), response.url(), response.status())
      )
      page.on('requestfailed', (request) => {
        const reason = request.failure()?.errorText ?? 'unknown error'
        this.problems.requestFailed(request.method(), request.url(), reason, isAborted(reason))
      })
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/client-errors') this.reportCount += 1
      })
      this.page = page
    }
    await setViewport(this.page, screen)
    return this.page
  }

  private current(): Page {
    if (!this.page) throw new Error('no page is open: call open() first')
    return this.page
  }

  async open(path: string, { screen = DESKTOP }: { screen?: Screen } = {}): Promise<number> {
    const page = await this.pageFor(screen)
    const response = await page.goto(new URL(path, this.baseURL).href, { waitUntil: 'load' })
    await page.evaluate(loadedWithFonts)
    return response?.status() ?? 0
  }

  async resize(screen: Screen): Promise<void> {
    await setViewport(this.current(), screen)
  }

  run<A, R>(check: InPage<A, R>, arg: A): Promise<R> {
    return this.current().evaluate(check as (arg: unknown) => R, arg as unknown) as Promise<R>
  }

  // Not Puppeteer's locators: their polling evaluates strings, which the site's CSP refuses.
  async click(selector: string): Promise<void> {
    const element = await this.current().waitForSelector(selector, { visible: true })
    await element!.click()
  }

  async type(selector: string, text: string): Promise<void> {
    const field = await this.current().waitForSelector(selector, { visible: true })
    await field!.type(text)
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
    await this.current().screenshot({ path: file as `${string}.png`, fullPage: true })
    return file
  }

  async close(): Promise<void> {
    await this.context?.close()
    this.context = undefined
    this.page = undefined
  }
}

/**
 * BiDi's browsingContext.setViewport, as Page.setViewport sends it, without the screen-orientation
 * override Puppeteer sends with it, which Firefox ESR 140 does not know ("unknown command").
 */
async function setViewport(page: Page, { width, height }: Screen): Promise<void> {
  const frame = page.mainFrame() as unknown as {
    browsingContext: {
      setViewport(options: { viewport: { width: number; height: number } }): Promise<void>
    }
  }
  await frame.browsingContext.setViewport({ viewport: { width, height } })
}

/** Puppeteer prints an Error argument of console.error as `JSHandle@error`: say so plainly. */
function consoleText(text: string, args: number): string {
  return text.includes('JSHandle@error')
    ? `${text.replaceAll('JSHandle@error', '<Error>')} (${args} argument(s))`
    : text
}
