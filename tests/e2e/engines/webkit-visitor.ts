/**
 * The visitor over Selenium and WebKitWebDriver: Debian's WebKitGTK (Safari's engine), for
 * `npm run test:engines`. WebKitWebDriver speaks classic WebDriver, which reports neither console
 * messages nor network traffic, so the browser reaches the site through ./watching-proxy.ts, which
 * does. One WebKitWebDriver session per test worker (./engine-fixtures.ts), cleared between tests.
 * WebKitGTK emulates no phone: a phone screen is a window of its width and height.
 */
import { writeFileSync } from 'node:fs'
import { By, Key, type WebDriver } from 'selenium-webdriver'
import { settled } from './in-page'
import type { ProblemLog } from './problem-log'
import { screenshotFile } from './screenshots'
import { PROBE_KEY, takeProbedProblems, type WatchingProxy } from './watching-proxy'
import { DESKTOP, type InPage, type Screen, type Visitor } from './visitor'

export class WebKitVisitor implements Visitor {
  readonly engine = 'webkit'
  readonly problems: ProblemLog
  private opened = false
  private size = { width: 0, height: 0 }
  private reportsBefore: number

  constructor(
    private readonly driver: WebDriver,
    private readonly proxy: WatchingProxy,
    private readonly version: string,
  ) {
    this.problems = proxy.problems
    this.problems.take()
    this.reportsBefore = proxy.reports()
  }

  get name(): string {
    return `webkit ${this.version} (Selenium, WebKitWebDriver)`
  }

  /** Sizes the window so that the page's viewport (innerWidth × innerHeight) is `screen`. */
  private async setScreen(screen: Screen): Promise<void> {
    if (this.size.width === screen.width && this.size.height === screen.height) return
    const window = this.driver.manage().window()
    await window.setRect({ width: screen.width, height: screen.height })
    const [inner, outer] = await this.driver.executeScript<[[number, number], [number, number]]>('return [[innerWidth, innerHeight], [outerWidth, outerHeight]]')
    if (inner[0] !== screen.width || inner[1] !== screen.height) {
      await window.setRect({ width: screen.width + outer[0] - inner[0], height: screen.height + outer[1] - inner[1] })
    }
    this.size = { width: screen.width, height: screen.height }
  }

  /** Moves what the probe recorded on the page into the problem log. */
  private async collect(): Promise<void> {
    if (!this.opened) return
    const probed = await this.run(takeProbedProblems, PROBE_KEY).catch(() => [] as string[])
    for (const problem of probed) {
      if (problem.startsWith('page error: ')) this.problems.pageError(problem.slice('page error: '.length))
      else this.problems.consoleError(problem.slice('console error: '.length))
    }
  }

  async open(path: string, { screen = DESKTOP, hydrate = true }: { screen?: Screen; hydrate?: boolean } = {}): Promise<number> {
    await this.collect()
    await this.setScreen(screen)
    const url = new URL(path, this.proxy.origin).href
    await this.driver.get(url)
    this.opened = true
    if (hydrate && !(await this.run(settled, 15_000))) throw new Error(`${path}: the client never signalled data-client-loaded`)
    const [navigation] = await this.run(() => (performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]).map((entry) => entry.responseStatus ?? 0), null)
    return navigation ?? 0
  }

  async resize(screen: Screen): Promise<void> {
    await this.setScreen(screen)
  }

  async run<A, R>(check: InPage<A, R>, arg: A): Promise<R> {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${check.toString()})(arguments[0]))
        .then((value) => done({ value }), (error) => done({ error: String(error && error.stack || error) }))`
    const answer = await this.driver.executeAsyncScript<{ value?: R; error?: string }>(script, arg)
    if (answer.error !== undefined) throw new Error(`in the page: ${answer.error}`)
    return answer.value as R
  }

  async click(selector: string): Promise<void> {
    await this.driver.findElement(By.css(selector)).click()
  }

  async type(selector: string, text: string): Promise<void> {
    await this.driver.findElement(By.css(selector)).sendKeys(text)
  }

  async press(key: 'Escape' | 'Enter'): Promise<void> {
    await this.driver.actions().sendKeys(key === 'Escape' ? Key.ESCAPE : Key.ENTER).perform()
  }

  async url(): Promise<string> {
    return this.driver.getCurrentUrl()
  }

  async reports(): Promise<number> {
    return this.proxy.reports() - this.reportsBefore
  }

  async screenshot(name: string): Promise<string> {
    const file = screenshotFile(name)
    const png = await this.driver.findElement(By.css('html')).takeScreenshot()
    writeFileSync(file, Buffer.from(png, 'base64'))
    return file
  }

  async close(): Promise<void> {
    await this.collect()
    // The next test starts from a blank page with nothing stored.
    if (this.opened) await this.driver.executeScript('localStorage.clear(); sessionStorage.clear()').catch(() => undefined)
    await this.driver.get('about:blank')
    this.opened = false
  }
}
