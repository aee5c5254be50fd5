/**
 * A visitor's browser, whatever drives it: the one interface the engine-neutral specs
 * (tests/e2e/visitor-*.spec.ts) use, so that the same spec runs in Chromium, Firefox and WebKit
 * through Playwright (its own builds, on CI; Chromium locally), through Puppeteer over WebDriver
 * BiDi (Debian's firefox-esr) and through Selenium over WebKitWebDriver (Debian's WebKitGTK).
 *
 * It is deliberately small: open a page at a screen size, run a check inside it (./in-page.ts),
 * click, type, press a key, read the address, take a screenshot. Everything a spec asserts about
 * the page it computes in the page, which every engine evaluates alike.
 */
import type { ProblemLog } from './problem-log'

export type Engine = 'chromium' | 'firefox' | 'webkit'

/** A screen: CSS pixels; `phone` adds touch and honours `<meta name="viewport">` where the driver can. */
export type Screen = { width: number; height: number; phone?: boolean }

export const PHONE: Screen = { width: 375, height: 812, phone: true }
export const DESKTOP: Screen = { width: 1280, height: 800 }

/** An in-page check: a self-contained function of one JSON argument (see ./in-page.ts). */
export type InPage<A, R> = (arg: A) => R | Promise<R>

export interface Visitor {
  /** The engine and how it is driven, e.g. `webkit (WebKitGTK 2.50.6, Selenium/WebKitWebDriver)`. */
  readonly name: string
  readonly engine: Engine
  /** The narrowest screen this driver can show, in CSS px (WebKitGTK's window cannot be a phone's). */
  readonly narrowest: number
  /** What went wrong on the pages so far: console errors, page errors, failed requests of the site. */
  readonly problems: ProblemLog
  /**
   * Opens `path` (a path, or an address on the site's origin such as a signed preview link) at
   * `screen` (default: the desktop) and waits for the load event and the fonts;
   * returns the HTTP status. Islands hydrate on their own triggers: a spec waits for what they show.
   */
  open(path: string, options?: { screen?: Screen }): Promise<number>
  /** Changes the screen size of the open page (a window resized, a phone turned). */
  resize(screen: Screen): Promise<void>
  run<A, R>(check: InPage<A, R>, arg: A): Promise<R>
  /** Clicks the first element matching `selector`, as a visitor's pointer does (trusted events). */
  click(selector: string): Promise<void>
  /** Types `text` into the field matching `selector`, key by key. */
  type(selector: string, text: string): Promise<void>
  /** Presses a key in the focused element. */
  press(key: 'Escape' | 'Enter'): Promise<void>
  url(): Promise<string>
  /** How many error reports (POST /api/client-errors) the pages sent so far. */
  reports(): Promise<number>
  /**
   * A full-page PNG in tests/e2e/screenshots/<name>.png, for people to look at, not a check: its
   * path, or null when the run takes no screenshots (./screenshots.ts) or the browser painted no
   * frame for it in time (the test notes it and goes on).
   */
  screenshot(name: string): Promise<string | null>
  /** Ends the visit; the problems of its last page are in `problems` after this. */
  close(): Promise<void>
}

/** Runs `check` in the page until it returns a truthy value, or fails after `timeoutMs`. */
export async function until<A, R>(
  visitor: Visitor,
  check: InPage<A, R>,
  arg: A,
  { timeoutMs = 10_000, what = 'the page' } = {}
): Promise<NonNullable<R>> {
  const deadline = Date.now() + timeoutMs
  let last: R
  do {
    last = await visitor.run(check, arg)
    if (last) return last as NonNullable<R>
    await new Promise((resolve) => setTimeout(resolve, 100))
  } while (Date.now() < deadline)
  throw new Error(
    `waited ${timeoutMs} ms for ${what}; the check last returned ${JSON.stringify(last)}`
  )
}
