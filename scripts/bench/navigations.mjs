/**
 * Step `navigations` (`npm run bench:navigations`): how soon the next page
 * paints after a click, in Chromium with 4x CPU slowdown, driven by puppeteer-core (Playwright's
 * connection blocks prerendering).
 *
 * For every ordered pair of the navbar's pages in one language (/en, /en/about, /en/enterprises,
 * /en/contact-us: 12 pairs), in a tab that has visited the site before: load the first page and
 * let it hydrate, hover the navbar's link to the second for 200 ms, click, and take the time from
 * the click to the new page's largest contentful paint, relative to activation as web-vitals
 * reports it (a prerendered page counts from its activation, when it is shown, plus its LCP after
 * that, if any; and how long before the click its request left, which is what the rules'
 * eagerness decides). Then go back (`history.back()`), and take the time from it to the first page's
 * paint: two animation frames after `pageshow` for a page restored from the back/forward cache
 * (as web-vitals measures one), its LCP otherwise. Each pair runs with the site's speculation
 * rules, and without them (through a proxy that drops the `Speculation-Rules` header).
 *
 * The same runs on a plain page (a loopback server's: a navbar and text that fills the window, in
 * the system font, no image, no script, the site's own rule set) give this machine's floor: what
 * Chromium here needs to show any page that fills the window, which on a machine without a GPU
 * (software raster, two cores) is most of a prerendered navigation's time.
 *
 * Targets: a prerendered navigation paints within 50 ms of the click; a back navigation within
 * 50 ms. Every time is read in the browser, on `performance.timeOrigin` + a page's own time (the
 * click event's time stamp, the LCP entry, the activation, the frame), not on Node's clock, which
 * Chromium's can be tens of milliseconds apart from.
 */
import http from 'node:http'
import puppeteer from 'puppeteer-core'
import { CHROMIUM_ARGS, chromiumPath, chromiumVersion } from '../lib/chromium-path.mjs'
import { startHeaderDroppingProxy } from '../lib/header-dropping-proxy.mjs'

export const NAVIGATION_TARGET_MS = 50
const PAGES = ['/en', '/en/about', '/en/enterprises', '/en/contact-us']
const CPU_SLOWDOWN = 4
const HOVER_MS = 200
const RUNS = Number(process.env.BENCH_NAVIGATION_RUNS) || 3

export const step = {
  name: 'navigations',
  title: "Navigations between the navbar's pages",
  usesSite: true,
  async run({ site, report }) {
    report.text(
      `\nNavigations between the navbar's pages (/en), hover ${HOVER_MS} ms then click, then back; ${RUNS} runs per pair and mode; ${chromiumVersion(await chromiumPath())}...`
    )
    const rows = await measureNavigations(site.origin)
    report.table(rows)
    report.text(navigationVerdict(rows))
  },
}

/**
 * In every document the bench loads: tells the bench when a click happened (on the page's clock,
 * which can be tens of milliseconds off Node's), and records when a page restored from the
 * back/forward cache has painted.
 */
const PROBE = `addEventListener('click', (event) => console.debug('bench:click', performance.timeOrigin + event.timeStamp), true)
addEventListener('pageshow', (event) => {
  if (event.persisted) requestAnimationFrame(() => requestAnimationFrame(() => { window.__restoredPaintAt = performance.timeOrigin + performance.now() }))
})`
/** Leaves the page through history, telling the bench when (on the page's clock). */
const GO_BACK = `console.debug('bench:back', performance.timeOrigin + performance.now()); history.back()`

/** In the current document: when its largest contentful paint was shown, relative to activation (epoch ms), and how it came. */
const PAINT_OF_CURRENT_PAGE = `new Promise((resolve) => {
  const navigation = performance.getEntriesByType('navigation')[0]
  const activationStart = navigation?.activationStart ?? 0
  new PerformanceObserver((list) => {
    const lcp = list.getEntries().at(-1).startTime
    resolve({ path: location.pathname, paintAt: performance.timeOrigin + Math.max(lcp, activationStart), shownAt: performance.timeOrigin + activationStart, requestedAt: performance.timeOrigin + navigation.requestStart, prerendered: activationStart > 0 })
  }).observe({ type: 'largest-contentful-paint', buffered: true })
  setTimeout(() => resolve(null), 3000)
})`

/**
 * Runs every pair with and without the rules; returns one row per pair and mode, the medians of
 * BENCH_NAVIGATION_RUNS runs (default 3).
 * @param {string} origin the site
 */
export async function measureNavigations(origin) {
  const withoutRules = await startHeaderDroppingProxy(origin, 'speculation-rules')
  const plain = await startPlainSite(origin)
  const browser = await puppeteer.launch({
    executablePath: await chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
  })
  const rows = []
  try {
    for (const { mode, site, slowdown } of [
      ...MODES(origin, withoutRules.origin),
      { mode: PLAIN_MODE, site: plain.origin, slowdown: 1 },
    ]) {
      // A visitor who has been on the site: fonts, scripts and images in the browser's cache.
      const warm = await openTab(browser, slowdown)
      for (const path of PAGES) await visit(warm.page, site + path)
      await warm.page.close()
      for (const from of PAGES) {
        for (const to of PAGES.filter((page) => page !== from)) {
          const runs = []
          for (let run = 0; run < RUNS; run++)
            runs.push(await navigateAndBack(browser, site, from, to, slowdown))
          rows.push({
            mode,
            from,
            to,
            'click → paint ms': median(runs.map((run) => run.forwardMs)),
            prerendered: `${runs.filter((run) => run.prerendered).length}/${RUNS}`,
            // For a prerendered page: how long before the click its request left (negative: after).
            'requested before click ms':
              median(runs.filter((run) => run.prerendered).map((run) => run.leadMs)) ?? '',
            // For a prerendered page: from the click to its activation; the rest is its first frame.
            'click → activation ms':
              median(runs.filter((run) => run.prerendered).map((run) => run.activationMs)) ?? '',
            'back → paint ms': median(runs.map((run) => run.backMs)),
            'back from bfcache': `${runs.filter((run) => run.restored).length}/${RUNS}`,
          })
        }
      }
    }
  } finally {
    await browser.close()
    withoutRules.server.close()
    plain.server.close()
  }
  return rows
}

/** The figures' summary against the targets. */
export function navigationVerdict(rows) {
  const valuesOf = (mode, key) => rows.filter((row) => row.mode === mode).map((row) => row[key])
  const summary = (mode, key) => {
    const values = valuesOf(mode, key)
    return `${Math.min(...values)}–${Math.max(...values)} ms (median ${median(values)})`
  }
  const overFloor = (key) => median(valuesOf(RULES_MODE, key)) - median(valuesOf(PLAIN_MODE, key))
  return [
    ...[...new Set(rows.map((row) => row.mode))].map(
      (mode) =>
        `${mode}: click → paint ${summary(mode, 'click → paint ms')}; back → paint ${summary(mode, 'back → paint ms')}`
    ),
    `the site's pages over the floor (medians, with the rules): click → paint +${overFloor('click → paint ms')} ms, back → paint +${overFloor('back → paint ms')} ms`,
    `target: within ${NAVIGATION_TARGET_MS} ms of the click for a prerendered and a back navigation; "${PLAIN_MODE}" is what this machine's Chromium needs for a page with nothing to load`,
  ].join('\n')
}

/**
 * The modes each pair runs in. Chromium does not prerender in a tab whose CPU DevTools throttles
 * (`PrerenderingDisabledByDevTools`), so the rules are measured without the slowdown, and the
 * navigations without rules both ways: the slowdown's own cost shows there.
 */
function MODES(origin, withoutRules) {
  return [
    { mode: RULES_MODE, site: origin, slowdown: 1 },
    { mode: 'without rules, no slowdown', site: withoutRules, slowdown: 1 },
    {
      mode: `without rules, ${CPU_SLOWDOWN}x slowdown`,
      site: withoutRules,
      slowdown: CPU_SLOWDOWN,
    },
  ]
}

const RULES_MODE = 'with rules, no slowdown'
const PLAIN_MODE = 'plain page, with rules, no slowdown (floor)'

/**
 * The floor's site: PAGES as plain pages on a loopback server, each a navbar of links to all of
 * them and text in the system font that fills the window, with the site's own rule set (fetched
 * from `origin`) named in the same header. Nothing to load but the HTML.
 */
async function startPlainSite(origin) {
  const rules = await (await fetch(new URL('/speculation-rules.json', origin))).text()
  const paragraph = `<p>${'Erebuni builds homes, offices and roads in Yerevan and across Armenia. '.repeat(12)}</p>`
  const page = (
    path
  ) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${path}</title>
<style>body{margin:0;font:18px/1.6 sans-serif}nav{display:flex;gap:1rem;padding:1rem 2rem;border-bottom:1px solid #ddd}main{padding:0 2rem}</style></head>
<body><nav>${PAGES.map((to) => `<a href="${to}">${to}</a>`).join('')}</nav><main><h1>${path}</h1>${paragraph.repeat(6)}</main></body></html>`
  const server = http.createServer((request, response) => {
    if (request.url === '/speculation-rules.json') {
      response.writeHead(200, { 'Content-Type': 'application/speculationrules+json' })
      return response.end(rules)
    }
    if (!PAGES.includes(request.url)) {
      response.writeHead(404)
      return response.end()
    }
    response.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'public, max-age=0',
      'Speculation-Rules': '"/speculation-rules.json"',
    })
    response.end(page(request.url))
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  server.unref()
  return { server, origin: `http://127.0.0.1:${server.address().port}` }
}

/** A new tab; with a slowdown, a DevTools session that throttles its CPU (which rules prerendering out). */
async function openTab(browser, slowdown) {
  const page = await browser.newPage()
  await page.setViewport({ width: 1280, height: 800 })
  await page.evaluateOnNewDocument(PROBE)
  let cdp
  if (slowdown > 1) {
    cdp = await page.createCDPSession()
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown })
  }
  return { page, cdp }
}

async function visit(page, url) {
  // By the load event the client entry, a module script, has run and armed the islands.
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 })
}

/** One run: load `from`, hover and click the link to `to`, then go back. */
async function navigateAndBack(browser, site, from, to, slowdown) {
  const tab = await openTab(browser, slowdown)
  const { page } = tab
  const marks = {}
  page.on('console', (message) => {
    const [name, time] = message.text().split(' ')
    if (name === 'bench:click' || name === 'bench:back') marks[name] = Number(time)
  })
  try {
    await visit(page, site + from)
    await sleep(500)
    const link = await page.waitForSelector(`nav a[href="${to}"]`, { visible: true })
    const box = await link.boundingBox()
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2]
    await page.mouse.move(x, y)
    await sleep(HOVER_MS)
    await page.mouse.down()
    await page.mouse.up()
    const forward = await waitForPaint(page, to)
    await sleep(1000)
    // A session of its own for going back: puppeteer loses a page restored from the back/forward cache.
    const cdp = tab.cdp ?? (await page.createCDPSession())
    await evaluate(cdp, GO_BACK)
    const back = await waitForBackPaint(cdp, from)
    if (!marks['bench:click'] || !marks['bench:back'])
      throw new Error(`the page did not report its click or back navigation (${from} → ${to})`)
    return {
      forwardMs: Math.round(forward.paintAt - marks['bench:click']),
      activationMs: forward.prerendered
        ? Math.round(forward.shownAt - marks['bench:click'])
        : undefined,
      leadMs: forward.prerendered
        ? Math.round(marks['bench:click'] - forward.requestedAt)
        : undefined,
      prerendered: forward.prerendered,
      backMs: Math.round(back.paintAt - marks['bench:back']),
      restored: back.restored,
    }
  } finally {
    await page.close()
  }
}

async function evaluate(cdp, expression) {
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
    expression,
    awaitPromise: true,
    returnByValue: true,
  })
  if (exceptionDetails) return undefined
  return result.value
}

/** Waits until the tab shows `path` and returns its paint (through puppeteer's own session: another one rules prerendering out). */
async function waitForPaint(page, path) {
  for (let tries = 0; tries < 200; tries++) {
    const paint = await page
      .evaluate(
        `location.pathname === ${JSON.stringify(path)} && document.readyState === 'complete' ? ${PAINT_OF_CURRENT_PAGE} : null`
      )
      .catch(() => null)
    if (paint) return paint
    await sleep(100)
  }
  throw new Error(`the tab never showed ${path}`)
}

/** After going back to `path`: the restored page's paint, or the LCP of the page loaded again. */
async function waitForBackPaint(cdp, path) {
  for (let tries = 0; tries < 200; tries++) {
    const restoredAt = await evaluate(
      cdp,
      `location.pathname === ${JSON.stringify(path)} ? window.__restoredPaintAt ?? null : null`
    ).catch(() => null)
    if (restoredAt) return { paintAt: restoredAt, restored: true }
    const loaded = await evaluate(
      cdp,
      `location.pathname === ${JSON.stringify(path)} && document.readyState === 'complete' && performance.getEntriesByType('navigation')[0].type === 'back_forward'`
    ).catch(() => false)
    if (loaded) {
      const paint = await evaluate(cdp, PAINT_OF_CURRENT_PAGE)
      if (paint) return { paintAt: paint.paintAt, restored: false }
    }
    await sleep(50)
  }
  throw new Error(`going back never showed ${path}`)
}

function median(values) {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2)
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
