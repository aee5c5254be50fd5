/**
 * What should never happen on a page of ours, collected the same way whichever driver watches
 * the browser (Playwright, Puppeteer, or the proxy and in-page probe of ./webkit-visitor.ts):
 * console errors, uncaught page errors, and failed requests on the site's own origin (HTTP 4xx/5xx
 * or a network failure; the site loads nothing else). `allow(url, status?)` excuses an expected one.
 */
type Allowance = { url: string | RegExp; status: number | undefined }

export class ProblemLog {
  private problems: string[] = []
  private allowances: Allowance[] = []

  constructor(readonly origin: string) {}

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

  /** A console.error. `Failed to load resource` lines for the site's own requests are left to `response`, so an allowed 404 is not reported twice. */
  consoleError(text: string, where = ''): void {
    if (text.startsWith('Failed to load resource') && this.isOwn(where)) return
    this.problems.push(`console error: ${text}${where ? ` (${where})` : ''}`)
  }

  pageError(text: string): void {
    this.problems.push(`page error: ${text}`)
  }

  response(method: string, url: string, status: number): void {
    if (status < 400 || !this.isOwn(url) || this.isAllowed(url, status)) return
    this.problems.push(`HTTP ${status}: ${method} ${url}`)
  }

  /** A request that got no response. `aborted`: a navigation replaced the page while it was still loading, not the site's fault. */
  requestFailed(method: string, url: string, reason: string, aborted: boolean): void {
    if (aborted || !this.isOwn(url) || this.isAllowed(url)) return
    this.problems.push(`request failed (${reason}): ${method} ${url}`)
  }

  /** Throws one error listing everything collected, and forgets it. */
  assertNone(): void {
    const problems = this.take()
    if (problems.length > 0) {
      throw new Error(
        `the page reported ${problems.length} problem(s); call pageProblems.allow(url, status) if one is expected:\n` +
          problems.map((problem) => `  - ${problem}`).join('\n')
      )
    }
  }

  isOwn(url: string): boolean {
    try {
      return new URL(url).origin === this.origin
    } catch {
      return false
    }
  }

  private isAllowed(url: string, status?: number): boolean {
    const { pathname } = new URL(url)
    return this.allowances.some((allowance) => {
      if (allowance.status !== undefined && status !== undefined && allowance.status !== status)
        return false
      if (allowance.url instanceof RegExp) return allowance.url.test(url)
      return allowance.url.startsWith('/') ? allowance.url === pathname : allowance.url === url
    })
  }
}

/** How each engine names a load the browser itself cut short (Chromium, Firefox, WebKit). */
export function isAborted(reason: string): boolean {
  return /ERR_ABORTED|NS_BINDING_ABORTED|^cancelled$|Load request cancelled/i.test(reason)
}
