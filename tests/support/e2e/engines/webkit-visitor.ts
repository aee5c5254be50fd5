/**
 * The visitor over Selenium and WebKitWebDriver: Debian's WebKitGTK (Safari's engine), for
 * `npm run test:engines`. WebKitWebDriver speaks classic WebDriver, which reports neither console
 * messages nor network traffic, so the browser reaches the site through ./watching-proxy.ts, which
 * does. One WebKitWebDriver session per test worker (./engine-fixtures.ts), cleared between tests.
 * WebKitGTK emulates no phone: a phone screen is a window of its width and height.
 */
import { writeFileSync } from 'node:fs'
import { By, Key, type WebDriver } from 'selenium-webdriver'
import { loadedWithFonts } from './in-page'
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

  /**
   * MiniBrowser's toolbar keeps its window from getting narrower than about 450 px, so phone widths
   * cannot be shown in WebKitGTK here; Playwright's WebKit shows them on CI.
   */
  readonly narrowest: number

  constructor(
    private readonly driver: WebDriver,
    private readonly proxy: WatchingProxy,
    private readonly version: string,
    narrowest: number
  ) {
    this.narrowest = narrowest
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
    if (screen.width < this.narrowest)
      throw new Error(
        `WebKitGTK's window is at least ${this.narrowest} px wide; ${screen.width} px cannot be shown (see narrowest)`
      )
    const window = this.driver.manage().window()
    // GTK resizes asynchronously: read the page's size once it has stopped changing.
    const settledSize = async () => {
      let last = await this.driver.executeScript<[number, number]>(
        'return [innerWidth, innerHeight]'
      )
      for (let read = 0, unchanged = 0; read < 30 && unchanged < 3; read += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        const now = await this.driver.executeScript<[number, number]>(
          'return [innerWidth, innerHeight]'
        )
        unchanged = now[0] === last[0] && now[1] === last[1] ? unchanged + 1 : 0
        last = now
      }
      return last
    }
    await window.setRect({ width: screen.width, height: screen.height })
    // The window's frame and toolbar take their share: grow the window by what the page lacks.
    let [width, height] = await settledSize()
    for (
      let attempt = 0;
      attempt < 4 && (width !== screen.width || height !== screen.height);
      attempt += 1
    ) {
      const outer = await window.getRect()
      await window.setRect({
        width: Math.max(1, outer.width + screen.width - width),
        height: Math.max(1, outer.height + screen.height - height),
      })
      ;[width, height] = await settledSize()
    }
    if (width !== screen.width)
      throw new Error(
        `WebKitGTK's page is ${width} px wide in a window sized for ${screen.width} px`
      )
    this.size = { width: screen.width, height: screen.height }
  }

  /** Moves what the probe recorded on the page into the problem log. */
  private async collect(): Promise<void> {
    if (!this.opened) return
    const probed = await this.run(takeProbedProblems, PROBE_KEY).catch(() => [] as string[])
    for (const problem of probed) {
      if (problem.startsWith('page error: '))
        this.problems.pageError(problem.slice('page error: '.length))
      else this.problems.consoleError(problem.slice('console error: '.length))
    }
  }

  async open(path: string, { screen = DESKTOP }: { screen?: Screen } = {}): Promise<number> {
    await this.collect()
    await this.setScreen(screen)
    const url = this.proxy.addressOf(path)
    await this.driver.get(url)
    this.opened = true
    await this.run(loadedWithFonts, null)
    return this.proxy.documentStatus(await this.driver.getCurrentUrl()) ?? 0
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

  /** As Playwright does, waits (5 s at most) for the element to become clickable: shown, in place, not covered. */
  async click(selector: string): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const element = await this.driver.findElement(By.css(selector))
        await this.driver.executeScript(
          'arguments[0].scrollIntoView({ block: "center", behavior: "instant" })',
          element
        )
        await element.click()
        return
      } catch (error) {
        if (
          attempt >= 25 ||
          !(error instanceof Error) ||
          !/NotInteractable|ClickIntercepted|NoSuchElement|StaleElement/.test(error.name)
        )
          throw error
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }
  }

  async type(selector: string, text: string): Promise<void> {
    await (await this.driver.findElement(By.css(selector))).sendKeys(text)
  }

  async press(key: 'Escape' | 'Enter'): Promise<void> {
    await this.driver
      .actions()
      .sendKeys(key === 'Escape' ? Key.ESCAPE : Key.ENTER)
      .perform()
  }

  async url(): Promise<string> {
    return this.driver.getCurrentUrl()
  }

  async reports(): Promise<number> {
    return this.proxy.reports() - this.reportsBefore
  }

  async screenshot(name: string): Promise<string | null> {
    const file = screenshotFile(name)
    if (!file) return null
    const png = await (await this.driver.findElement(By.css('html'))).takeScreenshot()
    writeFileSync(file, Buffer.from(png, 'base64'))
    return file
  }

  async close(): Promise<void> {
    await this.collect()
    // The next test starts from a blank page with nothing stored.
    if (this.opened)
      await this.driver
        .executeScript('localStorage.clear(); sessionStorage.clear()')
        .catch(() => undefined)
    await this.driver.get('about:blank')
    this.opened = false
  }
}
