/**
 * Prerendered pages: the site's speculation rules prerender a page when the visitor
 * hovers its link, and the page behaves like a visited one only once it is shown.
 *
 * Playwright's connection to Chromium blocks prerendering, so these tests drive the same Chromium
 * (E2E_CHROMIUM) with puppeteer-core, which does not, and reach the site through a loopback proxy
 * that records every request with its `Sec-Purpose` (a prerender's requests say
 * `prefetch;prerender`) and the beacons' bodies. The contact page is the one prerendered: its
 * form island's chunk is one the home page never loads, so it cannot come from the memory cache.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { CHROMIUM_ARGS } from '../../scripts/lib/chromium-path.mjs'
import { expect, test } from '../support/e2e/fixtures'

type Seen = { method: string; path: string; purpose: string; body: string }

/** A proxy to the site that records what passes; `seen` lists the requests. */
async function startRecordingProxy(target: string): Promise<{
  origin: string
  seen: Seen[]
  idleFor: () => number
  close: () => Promise<void>
}> {
  const seen: Seen[] = []
  let inFlight = 0
  let lastAnswered = Date.now()
  const upstream = new URL(target)
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks)
      seen.push({
        method: request.method ?? '',
        path: request.url ?? '',
        purpose: String(request.headers['sec-purpose'] ?? ''),
        body: body.toString('utf8'),
      })
      const forwarded = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, host: upstream.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(response)
        }
      )
      inFlight++
      response.on('close', () => {
        inFlight--
        lastAnswered = Date.now()
      })
      forwarded.on('error', () => response.destroy())
      forwarded.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    /** How long no request has been in flight, in ms (0 while one is). */
    idleFor: () => (inFlight > 0 ? 0 : Date.now() - lastAnswered),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

async function launch(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: process.env.E2E_CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  })
}

/**
 * Opens the English home page and waits until its speculation rules are in place: the rule set the
 * `Speculation-Rules` header names is fetched on its own and may come after the load event on a
 * busy machine; Chromium says it has it through CDP's Preload domain (`ruleSetUpdated`, sent again
 * for the rule sets already in place when the domain is enabled).
 */
async function openHome(browser: Browser, origin: string): Promise<Page> {
  const [page] = await browser.pages()
  await page!.setViewport({ width: 1280, height: 800 })
  const session = await page!.createCDPSession()
  let rulesInPlace = false
  session.on('Preload.ruleSetUpdated', ({ ruleSet }) => {
    if (ruleSet.url?.endsWith('/speculation-rules.json') && !ruleSet.errorType) rulesInPlace = true
  })
  await session.send('Preload.enable')
  await page!.goto(`${origin}/en`, { waitUntil: 'load' })
  await expect
    .poll(() => rulesInPlace, { message: 'the speculation rules are in place' })
    .toBe(true)
  await session.detach()
  return page!
}

/**
 * Rests the pointer on `link` for `ms` as the page counts time, then moves it away. The page starts
 * its timer when it sees the pointer enter, as Chromium's hover timer does, and the pointer leaves
 * once that timer has run: on a busy machine the renderer runs late, and a rest timed by the test
 * could end before the renderer had even seen the pointer arrive.
 */
async function restPointerOn(page: Page, link: string, ms: number): Promise<void> {
  await page.$eval(
    link,
    (anchor, ms) => {
      const rested = new Promise((resolve) =>
        anchor.addEventListener('pointerenter', () => setTimeout(resolve, ms), { once: true })
      )
      Object.assign(window, { pointerRested: rested })
    },
    ms
  )
  await page.hover(link)
  await page.evaluate(() => (window as unknown as { pointerRested: Promise<void> }).pointerRested)
  await page.mouse.move(0, 700)
}

type TraceEvent = {
  name: string
  ph: string
  ts: number
  args?: {
    frame?: string
    data?: { type?: string; frame?: string; reason?: string }
    beginData?: { frame?: string }
  }
}

/** A trace of the whole browser (every renderer, prerendered pages included) until `stop`. */
async function startBrowserTrace(browser: Browser): Promise<{ stop: () => Promise<TraceEvent[]> }> {
  const session = await browser.target().createCDPSession()
  await session.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: {
      recordMode: 'recordAsMuchAsPossible',
      includedCategories: [
        'devtools.timeline',
        'loading',
        // What each layout adds: "Added to layout" for every box it lays out for the first time.
        'disabled-by-default-devtools.timeline.invalidationTracking',
      ],
    },
  })
  return {
    async stop() {
      const complete = new Promise<{ stream?: string }>((resolve) =>
        session.once('Tracing.tracingComplete', resolve)
      )
      await session.send('Tracing.end')
      const { stream } = await complete
      let text = ''
      for (;;) {
        const chunk = await session.send('IO.read', { handle: stream!, size: 1 << 20 })
        text += chunk.base64Encoded
          ? Buffer.from(chunk.data, 'base64').toString('utf8')
          : chunk.data
        if (chunk.eof) break
      }
      await session.send('IO.close', { handle: stream! })
      return (JSON.parse(text) as { traceEvents: TraceEvent[] }).traceEvents
    },
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until the tab shows `path`; a prerender's activation swaps its document under the session. */
async function waitForPath(page: Page, path: string): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => location.pathname).catch(() => ''), { timeout: 15_000 })
    .toBe(path)
}

/** Waits until the page the click activated is shown and has painted a frame since. */
async function waitUntilShown(page: Page): Promise<void> {
  await page.waitForFunction(
    () => !(document as Document & { prerendering?: boolean }).prerendering
  )
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()))
      )
  )
}

const CONTACT_LINK = 'nav a[href="/en/contact-us"]'
const ABOUT_LINK = 'nav a[href="/en/about"]'
const isPrerender = (request: Seen) => request.purpose.includes('prerender')

test.describe('prerendered pages', () => {
  // Several page loads and waits longer than a page's idle time-outs (up to 8 s) each.
  test.describe.configure({ timeout: 90_000 })
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>
  let browser: Browser

  test.beforeEach(async ({ baseURL }) => {
    proxy = await startRecordingProxy(baseURL!)
    browser = await launch()
  })
  test.afterEach(async () => {
    await browser?.close()
    await proxy?.close()
  })

  test('a page prerendered on hover shows at once on click, and only then prefetches, hydrates what the visitor reaches for and reports vitals relative to its activation', async () => {
    const page = await openHome(browser, proxy.origin)
    await page.hover(CONTACT_LINK)
    await expect
      .poll(() =>
        proxy.seen.some((request) => isPrerender(request) && request.path === '/en/contact-us')
      )
      .toBe(true)
    await sleep(1500)
    await page.click(CONTACT_LINK)
    await waitForPath(page, '/en/contact-us')
    await waitUntilShown(page)
    // The visitor reaches for the form, which hydrates it (client/triggers.ts): its chunk comes.
    await page.focus('#contact-name')
    await page.waitForFunction(
      () =>
        performance
          .getEntriesByType('resource')
          .some((entry) => /\/assets\/contact-form-[\w-]+\.js$/.test(entry.name)),
      { timeout: 15_000 }
    )
    // The telemetry reporter starts on its own idle callback, which may come after the islands'.
    await page.waitForFunction(
      () =>
        performance
          .getEntriesByType('resource')
          .some((entry) => /\/assets\/(.+\/)?reporter-[\w-]+\.js$/.test(entry.name)),
      { timeout: 15_000 }
    )

    const shown = await page.evaluate(async () => {
      const navigation = performance.getEntriesByType(
        'navigation'
      )[0] as PerformanceNavigationTiming & { activationStart: number }
      const chunks = performance
        .getEntriesByType('resource')
        .filter((entry) =>
          /\/assets\/(.+\/)?(hydrate|back-to-top|contact-form|language-dropdown|navbar-menu|reporter)-[\w-]+\.(js|css)$/.test(
            entry.name
          )
        )
        .map((entry) => ({ name: new URL(entry.name).pathname, startTime: entry.startTime }))
      const lcp = await new Promise<number>((resolve) =>
        new PerformanceObserver((list) => resolve(list.getEntries().at(-1)!.startTime)).observe({
          type: 'largest-contentful-paint',
          buffered: true,
        })
      )
      return {
        activationStart: navigation.activationStart,
        chunks,
        lcp,
      }
    })
    // Prerendered: the document was loaded before the click, and activated by it.
    expect(shown.activationStart).toBeGreaterThan(0)
    expect(
      proxy.seen.filter((request) => request.path === '/en/contact-us' && !isPrerender(request))
    ).toEqual([])
    // The island's chunk, the hydration runtime and the telemetry reporter were requested after activation.
    expect(shown.chunks.map((chunk) => chunk.name)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/contact-form/),
        expect.stringMatching(/reporter/),
      ])
    )
    for (const chunk of shown.chunks)
      expect(chunk.startTime, chunk.name).toBeGreaterThanOrEqual(shown.activationStart)

    // Leaving the page sends its vitals: LCP measured from activation, not from the prerender's start.
    await page.goto(`${proxy.origin}/en/about`, { waitUntil: 'load' })
    await expect.poll(() => proxy.seen.some((request) => request.path === '/api/vitals')).toBe(true)
    const beacons = proxy.seen
      .filter((request) => request.path === '/api/vitals')
      .map(
        (request) =>
          JSON.parse(request.body) as {
            page: string
            metrics: { name: string; value: number; navigationType: string }[]
          }
      )
    const lcp = beacons
      .filter((beacon) => beacon.page === '/en/contact-us')
      .flatMap((beacon) => beacon.metrics)
      .find((metric) => metric.name === 'LCP')
    expect(lcp).toMatchObject({ navigationType: 'prerender' })
    expect(lcp!.value).toBeCloseTo(Math.max(0, shown.lcp - shown.activationStart), 0)
    expect(lcp!.value).toBeLessThan(shown.lcp)
  })

  test('a page prerendered on hover is laid out before it is shown: the frame after the click only paints', async () => {
    const page = await openHome(browser, proxy.origin)
    const trace = await startBrowserTrace(browser)
    await page.hover(ABOUT_LINK)
    // Loaded, its fonts in and laid out (client/prerender-layout.ts) once its requests are done.
    await expect
      .poll(
        () =>
          proxy.seen.some((request) => isPrerender(request) && request.path === '/en/about') &&
          proxy.idleFor() > 1000,
        { timeout: 30_000 }
      )
      .toBe(true)
    await page.click(ABOUT_LINK)
    await waitForPath(page, '/en/about')
    await waitUntilShown(page)
    const events = await trace.stop()

    const activation = events.find(
      (event) => event.name === 'EventDispatch' && event.args?.data?.type === 'prerenderingchange'
    )
    expect(activation, 'the page was prerendered, then shown by the click').toBeDefined()
    // Its first paint once shown: the first after the activation (the page it replaced is hidden).
    const firstPaint = events
      .filter((event) => event.name === 'Paint' && event.ts > activation!.ts)
      .sort((a, b) => a.ts - b.ts)[0]
    expect(firstPaint?.args?.data?.frame, 'its first paint once shown').toBeDefined()
    const frame = firstPaint!.args!.data!.frame
    const laidOut = events.filter(
      (event) =>
        event.name === 'Layout' &&
        event.ph === 'X' &&
        event.args?.beginData?.frame === frame &&
        event.ts < activation!.ts
    )
    expect(laidOut.length, 'layouts while prerendering').toBeGreaterThan(0)
    // Every box was laid out while prerendering, the parts below the first screen included: the
    // frame after the click lays out nothing anew (without client/prerender-layout.ts, the parts
    // near the screen, which content-visibility skipped until then: 68 boxes on this page).
    const addedAfterClick = events.filter(
      (event) =>
        event.name === 'LayoutInvalidationTracking' &&
        event.args?.data?.frame === frame &&
        event.args?.data?.reason === 'Added to layout' &&
        event.ts > activation!.ts &&
        event.ts < firstPaint!.ts
    )
    expect(addedAfterClick.length, 'boxes laid out between the click and the first paint').toBe(0)
  })

  test('a brief hover on a link to a page, far shorter than a click takes, prerenders it', async () => {
    const page = await openHome(browser, proxy.origin)
    const prerendered = (path: string) =>
      proxy.seen.filter((request) => isPrerender(request) && request.path === path).length
    // Half the 200 ms a `moderate` rule waits for: a visitor's pointer on its way to a click. A busy
    // renderer may see the pointer leave later than that, when a `moderate` rule would start too, so
    // this tells the two apart on a quiet machine; tests/worker/speculation-rules.test.ts checks
    // that the rule set says `eager`.
    for (const [link, path] of [
      ['main a.button[href="/en/about"]', '/en/about'],
      [CONTACT_LINK, '/en/contact-us'],
    ] as const) {
      await restPointerOn(page, link, 100)
      await expect.poll(() => prerendered(path), { message: link }).toBe(1)
    }
  })

  test('a prerender the visitor never opens loads no island and sends nothing', async () => {
    const page = await openHome(browser, proxy.origin)
    const fromHome = proxy.seen.length
    await page.hover(CONTACT_LINK)
    await expect
      .poll(() =>
        proxy.seen.some((request) => isPrerender(request) && request.path === '/en/contact-us')
      )
      .toBe(true)
    // Longer than a shown page waits for its islands (2 s after load) and its reporter (5 s).
    await sleep(7000)
    await page.mouse.move(0, 700)
    await page.goto(`${proxy.origin}/en/about`, { waitUntil: 'load' })
    await sleep(1000)
    const prerendered = proxy.seen.slice(fromHome).filter(isPrerender)
    expect(prerendered.map((request) => request.path)).toContain('/en/contact-us')
    expect(
      prerendered.filter(
        (request) =>
          /contact-form|hydrate|reporter/.test(request.path) || request.path.startsWith('/api/')
      )
    ).toEqual([])
    const beacons = proxy.seen.filter((request) => request.path.startsWith('/api/'))
    expect(beacons.map((beacon) => JSON.parse(beacon.body).page as string)).not.toContain(
      '/en/contact-us'
    )
  })
})
