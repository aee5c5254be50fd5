/**
 * The first load's main-thread cost of every page, beside a plain page's (the machine's floor):
 *
 * - unthrottled, Chromium's own counters once the page has loaded and the network is idle
 *   (CDP Performance.getMetrics: LayoutDuration and RecalcStyleDuration, with LayoutCount and
 *   RecalcStyleCount), in a fresh browser context (nothing cached) at a phone's width;
 * - with 4x CPU throttling (Emulation.setCPUThrottlingRate), the main thread's tasks over 50 ms from
 *   the navigation until the page is interactive, read from a Chromium trace (the renderer's main
 *   thread's RunTask events, as Lighthouse reads TBT): "interactive" is the end of the last long
 *   task, once the network has been idle for 500 ms after the load event.
 *
 * The floor is FLOOR_PAGE_PATH (src/routes/bench-floor.ts), served by the same worker through the
 * same middleware, which the site only serves with BENCH_FLOOR_PAGE=on. Each round loads the floor
 * and every page in turn, so that a machine that slows down weighs on all alike; the medians over
 * the rounds are reported.
 *
 *   node scripts/first-load.mjs                        # starts the site, all 12 pages, 3 rounds
 *   node scripts/first-load.mjs --origin http://127.0.0.1:8787 --pages /en/about,/ --rounds 5
 *   node scripts/first-load.mjs --trace /en/about      # where one page's first frame goes, by trace event
 *
 * FIRST_LOAD_ROUNDS sets the rounds when --rounds is not given.
 */
import path from 'node:path'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import puppeteer from 'puppeteer-core'
import { CHROMIUM_ARGS, chromiumPath, chromiumVersion } from './chromium-path.mjs'
import { findRuntimeOrigin, serverLogFile, startSite } from './local-site.mjs'

export const FLOOR_PAGE_PATH = '/__bench/plain-page'
export const SITE_PAGES = ['', '/en', '/ru'].flatMap((prefix) => ['/', '/about', '/enterprises', '/contact-us'].map((page) => (prefix && page === '/' ? prefix : `${prefix}${page}`)))
/** A mid-range phone's viewport, as in the issue (Lighthouse's mobile emulation is 412 px wide too). */
const PHONE = { width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true }
const LONG_TASK_MS = 50
const THROTTLING = 4
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'loading', 'toplevel']

/**
 * @param {object} options
 * @param {string} options.origin the site, which must serve FLOOR_PAGE_PATH
 * @param {string[]} [options.pages] paths to load
 * @param {number} [options.rounds]
 * @param {(line: string) => void} [options.log]
 * @returns {Promise<{ chromium: string, rows: FirstLoadRow[] }>} one row per page, the floor first
 */
export async function measureFirstLoad({ origin, pages = SITE_PAGES, rounds = 3, log = () => {} }) {
  const executable = await chromiumPath()
  const browser = await puppeteer.launch({ executablePath: executable, args: CHROMIUM_ARGS, headless: true })
  try {
    const targets = [FLOOR_PAGE_PATH, ...pages]
    /** @type {Map<string, LoadFigures[]>} */
    const runs = new Map(targets.map((target) => [target, []]))
    for (let round = 0; round < rounds; round++) {
      // Every other round in reverse order, so no page always follows the same one.
      for (const target of round % 2 ? [...targets].reverse() : targets) {
        const url = new URL(target, origin).href
        const counters = await loadCounters(browser, url)
        const throttled = await loadThrottled(browser, url)
        runs.get(target)?.push({ ...counters, ...throttled })
      }
      log(`first load: round ${round + 1} of ${rounds} done`)
    }
    const rows = targets.map((target) => summarize(target === FLOOR_PAGE_PATH ? 'plain page (floor)' : target, runs.get(target) ?? []))
    return { chromium: chromiumVersion(executable), rows }
  } finally {
    await browser.close()
  }
}

/**
 * @typedef {{ layoutMs: number, styleMs: number, layouts: number, recalcs: number, longTasks: number, longestTaskMs: number, blockingMs: number, interactiveMs: number }} LoadFigures
 * @typedef {{ page: string } & LoadFigures} FirstLoadRow
 */

/** Unthrottled: Chromium's layout and style counters once the page is loaded and quiet. */
async function loadCounters(browser, url) {
  const context = await browser.createBrowserContext()
  try {
    const page = await context.newPage()
    await page.setViewport(PHONE)
    const cdp = await page.createCDPSession()
    await cdp.send('Performance.enable', { timeDomain: 'timeTicks' })
    await page.goto(url, { waitUntil: 'networkidle0', timeout: 60_000 })
    const { metrics } = await cdp.send('Performance.getMetrics')
    const metric = (name) => metrics.find((entry) => entry.name === name)?.value ?? NaN
    return {
      layoutMs: metric('LayoutDuration') * 1000,
      styleMs: metric('RecalcStyleDuration') * 1000,
      layouts: metric('LayoutCount'),
      recalcs: metric('RecalcStyleCount'),
    }
  } finally {
    await context.close()
  }
}

/** 4x throttled, traced: the renderer main thread's long tasks until the page is interactive. */
async function loadThrottled(browser, url) {
  const context = await browser.createBrowserContext()
  try {
    const page = await context.newPage()
    await page.setViewport(PHONE)
    const cdp = await page.createCDPSession()
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING })
    await page.tracing.start({ categories: TRACE_CATEGORIES })
    await page.goto(url, { waitUntil: 'networkidle0', timeout: 120_000 })
    const trace = readTrace(await page.tracing.stop())
    const { tasks, start } = mainThreadTasks(trace.traceEvents, url)
    const long = tasks.filter((task) => task.dur / 1000 > LONG_TASK_MS)
    return {
      longTasks: long.length,
      longestTaskMs: Math.max(0, ...long.map((task) => task.dur / 1000)),
      blockingMs: long.reduce((sum, task) => sum + task.dur / 1000 - LONG_TASK_MS, 0),
      interactiveMs: long.length ? (Math.max(...long.map((task) => task.ts + task.dur)) - start) / 1000 : 0,
    }
  } finally {
    await context.close()
  }
}

/** @param {Uint8Array | undefined} data what page.tracing.stop() returned @returns {{ traceEvents: any[] }} */
function readTrace(data) {
  return data ? JSON.parse(new TextDecoder().decode(data)) : { traceEvents: [] }
}

/**
 * The top-level tasks of the renderer main thread that committed `url`, from the task that
 * committed it (its CommitLoad event's) on.
 * @param {any[]} events
 * @param {string} url
 */
export function mainThreadTasks(events, url) {
  const commit = events.find((event) => event.name === 'CommitLoad' && event.args?.data?.isMainFrame && event.args?.data?.url === url)
  if (!commit) return { tasks: [], start: 0, thread: null }
  const thread = { pid: commit.pid, tid: commit.tid }
  const onThread = events.filter((event) => event.pid === thread.pid && event.tid === thread.tid && event.name === 'RunTask' && event.ph === 'X')
  const committing = onThread.find((task) => task.ts <= commit.ts && commit.ts <= task.ts + task.dur)
  const start = committing?.ts ?? commit.ts
  return { tasks: onThread.filter((task) => task.ts >= start), start, thread }
}

/** @param {string} page @param {LoadFigures[]} runs @returns {FirstLoadRow} */
function summarize(page, runs) {
  const median = (key) => {
    const values = runs.map((run) => run[key]).sort((a, b) => a - b)
    return values.length ? values[Math.floor((values.length - 1) / 2)] : NaN
  }
  return {
    page,
    layoutMs: median('layoutMs'),
    styleMs: median('styleMs'),
    layouts: median('layouts'),
    recalcs: median('recalcs'),
    longTasks: median('longTasks'),
    longestTaskMs: median('longestTaskMs'),
    blockingMs: median('blockingMs'),
    interactiveMs: median('interactiveMs'),
  }
}

/**
 * The rows as a table, each figure with the floor's beside it, and the verdict against the issue's
 * targets: layout + style at most 2x the floor's, no task over 50 ms at 4x throttling.
 * @param {FirstLoadRow[]} rows the floor first
 */
export function firstLoadTable(rows) {
  const [floor, ...pages] = rows
  const floorWork = floor.layoutMs + floor.styleMs
  const table = rows.map((row) => {
    const work = row.layoutMs + row.styleMs
    return {
      page: row.page,
      'layout ms': row.layoutMs.toFixed(1),
      'style ms': row.styleMs.toFixed(1),
      'layout+style ms': work.toFixed(1),
      'x floor': (work / floorWork).toFixed(2),
      'layouts/recalcs': `${row.layouts}/${row.recalcs}`,
      'long tasks @4x': row.longTasks,
      'longest @4x ms': Math.round(row.longestTaskMs),
      'blocking @4x ms': Math.round(row.blockingMs),
    }
  })
  const over = pages.filter((row) => (row.layoutMs + row.styleMs) / floorWork > 2).map((row) => row.page)
  const long = pages.filter((row) => row.longTasks > 0).map((row) => `${row.page} (${Math.round(row.longestTaskMs)} ms)`)
  const verdict = [
    `floor (plain page): layout ${floor.layoutMs.toFixed(1)} ms + style ${floor.styleMs.toFixed(1)} ms; long tasks at 4x: ${floor.longTasks} (longest ${Math.round(floor.longestTaskMs)} ms)`,
    over.length ? `layout+style over 2x the floor: ${over.join(', ')}` : `layout+style within 2x the floor on all ${pages.length} pages`,
    long.length ? `a task over ${LONG_TASK_MS} ms at 4x throttling (median run): ${long.join(', ')}` : `no task over ${LONG_TASK_MS} ms at 4x throttling (median run) on any page`,
  ]
  return { table, verdict, failed: over.length > 0 || long.length > 0 }
}

/**
 * One page's first load, traced unthrottled: the renderer main thread's time by trace event, each
 * event's own time (its duration less its children's), largest first. Where a first frame goes.
 */
export async function traceBreakdown(url) {
  const executable = await chromiumPath()
  const browser = await puppeteer.launch({ executablePath: executable, args: CHROMIUM_ARGS, headless: true })
  try {
    const context = await browser.createBrowserContext()
    const page = await context.newPage()
    await page.setViewport(PHONE)
    await page.tracing.start({ categories: TRACE_CATEGORIES })
    await page.goto(url, { waitUntil: 'networkidle0', timeout: 60_000 })
    const trace = readTrace(await page.tracing.stop())
    const { thread, start } = mainThreadTasks(trace.traceEvents, url)
    if (!thread) throw new Error('the trace has no renderer main thread')
    const events = trace.traceEvents
      .filter((event) => event.pid === thread.pid && event.tid === thread.tid && event.ph === 'X' && event.ts >= start)
      .sort((a, b) => a.ts - b.ts || b.dur - a.dur)
    /** @type {Map<string, { self: number, selfCpu: number, total: number, count: number }>} */
    const byName = new Map()
    /** @type {any[]} */
    const stack = []
    const selfOf = new Map()
    const selfCpuOf = new Map()
    for (const event of events) {
      while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= event.ts) stack.pop()
      const parent = stack[stack.length - 1]
      if (parent) {
        selfOf.set(parent, (selfOf.get(parent) ?? parent.dur) - event.dur)
        selfCpuOf.set(parent, (selfCpuOf.get(parent) ?? parent.tdur ?? 0) - (event.tdur ?? 0))
      }
      selfOf.set(event, selfOf.get(event) ?? event.dur)
      selfCpuOf.set(event, selfCpuOf.get(event) ?? event.tdur ?? 0)
      stack.push(event)
    }
    for (const event of events) {
      const entry = byName.get(event.name) ?? { self: 0, selfCpu: 0, total: 0, count: 0 }
      entry.self += (selfOf.get(event) ?? 0) / 1000
      entry.selfCpu += (selfCpuOf.get(event) ?? 0) / 1000
      entry.total += event.dur / 1000
      entry.count += 1
      byName.set(event.name, entry)
    }
    return [...byName.entries()]
      .map(([name, { self, selfCpu, total, count }]) => ({
        event: name,
        'self ms': Number(self.toFixed(1)),
        'self CPU ms': Number(selfCpu.toFixed(1)),
        'total ms': Number(total.toFixed(1)),
        count,
      }))
      .sort((a, b) => b['self CPU ms'] - a['self CPU ms'])
  } finally {
    await browser.close()
  }
}

/** Starts the site with the floor page on, measured at the Workers runtime behind wrangler dev's proxy. */
export async function startSiteWithFloor() {
  const site = await startSite({ vars: { BENCH_FLOOR_PAGE: 'on' }, logFile: serverLogFile('first-load'), production: true })
  const runtime = await findRuntimeOrigin(site)
  return { site, origin: runtime ?? site.origin }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { origin: { type: 'string' }, pages: { type: 'string' }, rounds: { type: 'string' }, trace: { type: 'string' } },
  })
  const started = values.origin ? null : await startSiteWithFloor()
  const origin = values.origin ?? started?.origin ?? ''
  try {
    if (values.trace) {
      for (const target of [FLOOR_PAGE_PATH, ...values.trace.split(',')]) {
        console.log(`\n${target}: the renderer main thread's time by trace event (self time, and self CPU time), first load, unthrottled`)
        console.table((await traceBreakdown(new URL(target, origin).href)).slice(0, Number(process.env.FIRST_LOAD_TRACE_ROWS) || 25))
      }
    } else {
      const pages = values.pages ? values.pages.split(',') : SITE_PAGES
      const rounds = Number(values.rounds ?? process.env.FIRST_LOAD_ROUNDS ?? 3)
      const { chromium, rows } = await measureFirstLoad({ origin, pages, rounds, log: console.log })
      const { table, verdict, failed } = firstLoadTable(rows)
      console.log(`\nFirst load at ${PHONE.width} px, ${chromium}, ${origin}, medians of ${rounds} round(s):`)
      console.table(table)
      console.log(verdict.join('\n'))
      process.exitCode = failed ? 1 : 0
    }
  } finally {
    await started?.site.stop()
  }
}
