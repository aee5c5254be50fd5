/**
 * `test` for the engine-neutral specs (tests/e2e/visitor-*.spec.ts): the fixtures of ../fixtures.ts
 * plus `visitor`, a ./visitor.ts over whichever driver the project names (playwright.config.ts):
 *
 * - `driver: 'playwright'`: Playwright's browser of the project (`browserName`), as every other spec;
 * - `driver: 'firefox-esr'`: Debian's firefox-esr through Puppeteer (WebDriver BiDi);
 * - `driver: 'webkitgtk'`: Debian's WebKitGTK through WebKitWebDriver and Selenium.
 *
 * The Debian browsers are started once per test worker; the visitor fails its test, when the test
 * ends, with every problem its pages had, as the `page` fixture does.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { browserExecutable, SYSTEM_BROWSERS } from '../../../../scripts/lib/system-browsers.mjs'
import { test as base } from '../fixtures'
import { FirefoxVisitor } from './firefox-visitor'
import { PlaywrightVisitor } from './playwright-visitor'
import { startWatchingProxy } from './watching-proxy'
import type { Visitor } from './visitor'
import { WebKitVisitor } from './webkit-visitor'

export type Driver = 'playwright' | 'firefox-esr' | 'webkitgtk'

/** The Debian browsers, where `npm run test:engines` provides them (scripts/lib/system-browsers.mjs). */
export const FIREFOX_ESR = browserExecutable(SYSTEM_BROWSERS.firefoxEsr)
export const WEBKIT_WEBDRIVER = browserExecutable(SYSTEM_BROWSERS.webkitDriver)

type Started = { visitor: (baseURL: string) => Promise<Visitor>; stop: () => Promise<void> }

type WorkerFixtures = {
  /** How the project drives its browser. */
  driver: Driver
  /** The browser started for this worker: makes a fresh visitor for each test. */
  visitors: (baseURL: string) => Promise<Visitor>
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function startFirefox(): Promise<Started> {
  const { default: puppeteer } = await import('puppeteer-core')
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_ESR,
    headless: true,
  })
  const version = (await browser.version()).replace(/^firefox\//, '')
  return {
    visitor: async (baseURL) => new FirefoxVisitor(browser, baseURL, version),
    stop: () => browser.close(),
  }
}

async function startWebKit(): Promise<Started> {
  const { Builder } = await import('selenium-webdriver')
  const port = await freePort()
  const driverProcess: ChildProcess = spawn(WEBKIT_WEBDRIVER, [`--port=${port}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const stderr: string[] = []
  driverProcess.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()))
  const stopDriver = async () => {
    if (driverProcess.exitCode === null) {
      driverProcess.kill('SIGTERM')
      await once(driverProcess, 'exit')
    }
  }
  try {
    for (let attempt = 0; ; attempt += 1) {
      const ready = await fetch(`http://127.0.0.1:${port}/status`).then(
        (response) => response.ok,
        () => false
      )
      if (ready) break
      if (attempt > 100 || driverProcess.exitCode !== null)
        throw new Error(`WebKitWebDriver did not start: ${stderr.join('')}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const driver = await new Builder()
      .usingServer(`http://127.0.0.1:${port}`)
      .withCapabilities({ browserName: 'MiniBrowser' })
      .build()
    await driver.manage().setTimeouts({ script: 90_000, pageLoad: 60_000 })
    const version = String(
      (await driver.getCapabilities()).get('browserVersion') ?? webKitGtkVersion()
    )
    await driver.manage().window().setRect({ width: 200, height: 800 })
    const narrowest = await driver.executeScript<number>('return innerWidth')
    const proxies: { close: () => Promise<void> }[] = []
    return {
      visitor: async (baseURL) => {
        const proxy = await startWatchingProxy(baseURL)
        proxies.push(proxy)
        return new WebKitVisitor(driver, proxy, version, narrowest)
      },
      stop: async () => {
        await driver.quit().catch(() => undefined)
        await Promise.all(proxies.map((proxy) => proxy.close()))
        await stopDriver()
      },
    }
  } catch (error) {
    await stopDriver()
    throw error
  }
}

function webKitGtkVersion(): string {
  try {
    return execFileSync('dpkg-query', ['-W', '-f=${Version}', 'libwebkit2gtk-4.1-0'], {
      encoding: 'utf8',
    })
  } catch {
    return 'unknown'
  }
}

export const test = base.extend<{ visitor: Visitor }, WorkerFixtures>({
  driver: ['playwright', { option: true, scope: 'worker' }],

  // Playwright's own `browser` is not used here, so that a project driving a Debian browser
  // launches no other.
  visitors: [
    async ({ driver, playwright, browserName, launchOptions, headless }, use) => {
      let started: Started
      if (driver === 'firefox-esr') started = await startFirefox()
      else if (driver === 'webkitgtk') started = await startWebKit()
      else {
        const browser = await playwright[browserName].launch({ ...launchOptions, headless })
        started = {
          visitor: async (baseURL) => new PlaywrightVisitor(browser, baseURL, browserName),
          stop: () => browser.close(),
        }
      }
      try {
        await use(started.visitor)
      } finally {
        await started.stop()
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  visitor: async ({ visitors, baseURL }, use, testInfo) => {
    if (!baseURL) throw new Error('baseURL is not set; run through playwright.config.ts')
    const visitor = await visitors(baseURL)
    testInfo.annotations.push({ type: 'browser', description: visitor.name })
    try {
      await use(visitor)
    } finally {
      await visitor.close()
    }
    visitor.problems.assertNone()
  },
})

export { expect } from '../fixtures'
