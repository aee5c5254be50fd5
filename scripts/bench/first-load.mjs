/**
 * Step `first-load` (`npm run bench:first-load`): what the first load of every page costs
 * the main thread, beside a plain page's, served by the same worker in the same run (the machine's
 * floor: FLOOR_PAGE_PATH, which the bench's site serves through scripts/lib/harness-worker/). For each of the 12 pages and the floor:
 *
 * - unthrottled, Chromium's own counters once the page has loaded and the network is idle
 *   (CDP Performance.getMetrics: LayoutDuration and RecalcStyleDuration, with LayoutCount and
 *   RecalcStyleCount), in a fresh browser context (nothing cached) at a phone's width (412 px), the
 *   same work in CPU time (the trace's thread time, which a busy machine inflates far less), and
 *   the synchronous font lookups the renderer made (a trace's `fonts` category: on Linux each one is
 *   a round trip to the browser process in the middle of a layout; a count that follows the
 *   machine's load too, as a layout that runs before the web fonts arrive looks up the fallbacks);
 * - with 4x CPU throttling (Emulation.setCPUThrottlingRate), the navigation commit's task (which
 *   the plain page pays too: a new window and script context, the first bytes parsed), then the
 *   main thread's tasks over 50 ms until the network has been idle for 500 ms after the load
 *   event, read from a Chromium trace (the renderer main thread's RunTask events, as Lighthouse
 *   reads TBT);
 * - unless the run skips the lighthouse step, Lighthouse mobile (scripts/bench/lighthouse.mjs) on
 *   every page and the floor, BENCH_LIGHTHOUSE_RUNS times each (3): every run's performance score
 *   and TBT.
 *
 * Each round loads the floor and every page in turn (every other round in reverse order), so that a
 * machine that slows down weighs on all alike; medians over BENCH_FIRST_LOAD_ROUNDS rounds (3).
 * Target: Lighthouse 100 with TBT at most 50 ms in every run. The tasks at 4x are printed beside
 * the floor's commit task, with no target: the plain page's own commit task (no script, a nav and a
 * paragraph parsed, styled and laid out) is over 50 ms at 4x on this machine, so "no task over
 * 50 ms at 4x" no page can meet (docs/decisions/0048). Layout and style time and font lookups are
 * printed beside the floor's, with no target: they follow the machine's load, and what keeps them
 * down is checked by first-load.spec.ts (docs/decisions/0031).
 * BENCH_FIRST_LOAD_PAGES narrows the pages (comma-separated);
 * BENCH_FIRST_LOAD_TRACE=/en/about,/ prints where those pages' first load goes, by trace event;
 * BENCH_FIRST_LOAD_VARIANTS=/en/about,/ measures those pages again without their web fonts and
 * without their size containers (./first-load-variants.mjs), in a table of its own.
 */
import puppeteer from 'puppeteer-core'
import { CHROMIUM_ARGS, chromiumPath, chromiumVersion } from '../lib/chromium-path.mjs'
import { FIRST_LOAD_TRACE_CATEGORIES, firstLoadWork } from '../lib/first-load-trace.mjs'
import { answerNavigation, PAGE_VARIANTS } from './first-load-variants.mjs'
import { lighthouseFigures } from './lighthouse.mjs'
import { BROWSER, everyPage, median, pathList } from './shared.mjs'

/** The plain page's address: scripts/lib/harness-worker/floor-page.ts (FLOOR_PAGE_PATH). */
export const FLOOR_PAGE_PATH = '/__bench/plain-page'
const ROUNDS = Number(process.env.BENCH_FIRST_LOAD_ROUNDS) || 3
/** A mid-range phone's viewport, as in the issue (Lighthouse's mobile emulation is 412 px wide too). */
const PHONE = { width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true }
const LONG_TASK_MS = 50
const THROTTLING = 4
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink',
  'loading',
  'toplevel',
]

export const step = {
  name: 'first-load',
  title: 'First load: main-thread work beside a plain page',
  usesSite: true,
  async run({ site, report, withLighthouse }) {
    const pages = pathList(process.env.BENCH_FIRST_LOAD_PAGES, everyPage().join(','))
    for (const target of pathList(process.env.BENCH_FIRST_LOAD_TRACE, '')) {
      console.log(
        `\n${target}: the renderer main thread's time by trace event (self time, and self CPU time), first load, unthrottled`
      )
      console.table((await traceBreakdown(new URL(target, site.origin).href)).slice(0, 30))
    }
    const { chromium, rows } = await measureFirstLoad({
      origin: site.origin,
      pages,
      rounds: ROUNDS,
      log: console.log,
    })
    const variantPages = pathList(process.env.BENCH_FIRST_LOAD_VARIANTS, '')
    const variantRows = variantPages.length
      ? (
          await measureFirstLoad({
            origin: site.origin,
            pages: [],
            variants: variantPages,
            rounds: ROUNDS,
            log: console.log,
          })
        ).rows
      : []
    const lighthouse = new Map()
    if (withLighthouse) {
      for (const target of [FLOOR_PAGE_PATH, ...pages])
        lighthouse.set(target, await lighthouseFigures(new URL(target, site.origin).href))
    }
    report.text(
      `\nFirst load at ${PHONE.width} px, ${chromium}, medians of ${ROUNDS} round(s); each page beside the plain page (floor) served by the same worker`
    )
    const { table, verdict } = firstLoadTable(rows, lighthouse)
    report.table(table)
    report.text(verdict.join('\n'))
    if (variantRows.length) {
      report.text(
        `\nWhere the first load goes: the same HTML without its web fonts (every @font-face, the system's sans-serif) or without its size containers, answered by the bench's browser itself, beside the page as served the same way and the plain page; medians of ${ROUNDS} round(s)`
      )
      report.table(variantTable(variantRows))
    }
  },
}

/**
 * @param {object} options
 * @param {string} options.origin the site, which must serve FLOOR_PAGE_PATH
 * @param {string[]} [options.pages] paths to load
 * @param {string[]} [options.variants] paths to load in each of PAGE_VARIANTS, answered by the browser
 * @param {number} [options.rounds]
 * @param {(line: string) => void} [options.log]
 * @returns {Promise<{ chromium: string, rows: FirstLoadRow[] }>} one row per page (and variant), the floor first
 */
export async function measureFirstLoad({
  origin,
  pages = [],
  variants = [],
  rounds,
  log = () => {},
}) {
  const { browser, executable } = await launchChromium()
  try {
    /** @type {{ label: string, url: string, answer?: { url: string, body: string } }[]} */
    const targets = [FLOOR_PAGE_PATH, ...pages].map((path) => ({
      label: path,
      url: new URL(path, origin).href,
    }))
    for (const path of variants) {
      const url = new URL(path, origin).href
      const html = await (await fetch(url, { headers: BROWSER })).text()
      for (const [name, change] of Object.entries(PAGE_VARIANTS))
        targets.push({ label: `${path} · ${name}`, url, answer: { url, body: change(html) } })
    }
    /** @type {Map<string, LoadFigures[]>} */
    const runs = new Map(targets.map((target) => [target.label, []]))
    for (let round = 0; round < rounds; round++) {
      // Every other round in reverse order, so no page always follows the same one.
      for (const target of round % 2 ? [...targets].reverse() : targets) {
        const counters = await loadCounters(browser, target.url, target.answer)
        const throttled = await loadThrottled(browser, target.url, target.answer)
        runs.get(target.label)?.push({ ...counters, ...throttled })
      }
      log(`first load: round ${round + 1} of ${rounds} done`)
    }
    const rows = targets.map((target) => summarize(target.label, runs.get(target.label) ?? []))
    return { chromium: chromiumVersion(executable), rows }
  } finally {
    await browser.close()
  }
}

/** Debian's Chromium, headless, with the bench's flags. */
async function launchChromium() {
  const executable = await chromiumPath()
  const browser = await puppeteer.launch({
    executablePath: executable,
    args: CHROMIUM_ARGS,
    headless: true,
  })
  return { browser, executable }
}

/**
 * @typedef {{ layoutMs: number, styleMs: number, layouts: number, recalcs: number, layoutStyleCpuMs: number, fontLookups: number, commitTaskMs: number, longTasks: number, longestTaskMs: number, blockingMs: number }} LoadFigures
 * @typedef {{ page: string } & LoadFigures} FirstLoadRow
 */

/**
 * Runs `visit` in a new tab of a fresh browser context (nothing cached) at the phone's size, with a
 * DevTools session on it; closes the context after.
 * @template T
 * @param {import('puppeteer-core').Browser} browser
 * @param {(tab: { page: import('puppeteer-core').Page, cdp: import('puppeteer-core').CDPSession }) => Promise<T>} visit
 * @param {{ url: string, body: string }} [answer] HTML to answer the navigation to `url` with
 * @returns {Promise<T>}
 */
async function inFreshTab(browser, visit, answer) {
  const context = await browser.createBrowserContext()
  try {
    const page = await context.newPage()
    await page.setViewport(PHONE)
    if (answer) await answerNavigation(page, answer)
    return await visit({ page, cdp: await page.createCDPSession() })
  } finally {
    await context.close()
  }
}

/**
 * Unthrottled: Chromium's layout and style counters once the page is loaded and quiet.
 * @param {import('puppeteer-core').Browser} browser
 * @param {string} url
 * @param {{ url: string, body: string }} [answer] HTML the browser answers the navigation with
 */
function loadCounters(browser, url, answer) {
  return inFreshTab(
    browser,
    async ({ page, cdp }) => {
      await cdp.send('Performance.enable', { timeDomain: 'timeTicks' })
      await page.tracing.start({ categories: FIRST_LOAD_TRACE_CATEGORIES })
      await page.goto(url, { waitUntil: 'networkidle0', timeout: 60_000 })
      const { metrics } = await cdp.send('Performance.getMetrics')
      const trace = readTrace(await page.tracing.stop())
      const metric = (name) => metrics.find((entry) => entry.name === name)?.value ?? NaN
      return {
        layoutMs: metric('LayoutDuration') * 1000,
        styleMs: metric('RecalcStyleDuration') * 1000,
        layouts: metric('LayoutCount'),
        recalcs: metric('RecalcStyleCount'),
        ...firstLoadWork(trace.traceEvents, url),
      }
    },
    answer
  )
}

/**
 * 4x throttled, traced: the renderer main thread's long tasks until the page is interactive.
 * @param {import('puppeteer-core').Browser} browser
 * @param {string} url
 * @param {{ url: string, body: string }} [answer] HTML the browser answers the navigation with
 */
function loadThrottled(browser, url, answer) {
  return inFreshTab(
    browser,
    async ({ page, cdp }) => {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING })
      await page.tracing.start({ categories: TRACE_CATEGORIES })
      await page.goto(url, { waitUntil: 'networkidle0', timeout: 120_000 })
      const { tasks, committing } = mainThreadTasks(
        readTrace(await page.tracing.stop()).traceEvents,
        url
      )
      // The commit's own task (a new document's window and script context, the first bytes parsed)
      // is reported apart: the plain page pays it too.
      const long = tasks.filter((task) => task !== committing && task.dur / 1000 > LONG_TASK_MS)
      return {
        commitTaskMs: (committing?.dur ?? NaN) / 1000,
        longTasks: long.length,
        longestTaskMs: Math.max(0, ...long.map((task) => task.dur / 1000)),
        blockingMs: long.reduce((sum, task) => sum + task.dur / 1000 - LONG_TASK_MS, 0),
      }
    },
    answer
  )
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
  const commit = events.find(
    (event) =>
      event.name === 'CommitLoad' && event.args?.data?.isMainFrame && event.args?.data?.url === url
  )
  if (!commit) return { tasks: [], start: 0, thread: null, committing: undefined }
  const thread = { pid: commit.pid, tid: commit.tid }
  const onThread = events.filter(
    (event) =>
      event.pid === thread.pid &&
      event.tid === thread.tid &&
      event.name === 'RunTask' &&
      event.ph === 'X'
  )
  const committing = onThread.find(
    (task) => task.ts <= commit.ts && commit.ts <= task.ts + task.dur
  )
  const start = committing?.ts ?? commit.ts
  return { tasks: onThread.filter((task) => task.ts >= start), start, thread, committing }
}

/** @param {string} page @param {LoadFigures[]} runs @returns {FirstLoadRow} */
function summarize(page, runs) {
  // A run whose trace missed a figure (NaN) is left out of that figure's median.
  const middle = (/** @type {keyof LoadFigures} */ key) =>
    median(runs.map((run) => run[key]).filter((value) => !Number.isNaN(value)))
  return {
    page,
    layoutMs: middle('layoutMs'),
    styleMs: middle('styleMs'),
    layouts: middle('layouts'),
    recalcs: middle('recalcs'),
    layoutStyleCpuMs: middle('layoutStyleCpuMs'),
    fontLookups: middle('fontLookups'),
    commitTaskMs: middle('commitTaskMs'),
    longTasks: middle('longTasks'),
    longestTaskMs: middle('longestTaskMs'),
    blockingMs: middle('blockingMs'),
  }
}

/**
 * The rows as a table, each page's figures with the floor's in the first row, and the verdict
 * against the issue's targets.
 * @param {FirstLoadRow[]} rows the floor first
 * @param {Map<string, { runs: Record<string, number | string>[] }>} lighthouse each page's Lighthouse runs, if any
 */
export function firstLoadTable(rows, lighthouse) {
  const [floor, ...pages] = rows
  const floorWork = floor.layoutMs + floor.styleMs
  const runsOf = (page) => lighthouse.get(page)?.runs ?? []
  const table = rows.map((row) => {
    const work = row.layoutMs + row.styleMs
    return {
      page: row.page === FLOOR_PAGE_PATH ? 'plain page (floor)' : row.page,
      'layout ms': row.layoutMs.toFixed(1),
      'style ms': row.styleMs.toFixed(1),
      'layout+style ms': work.toFixed(1),
      'x floor': (work / floorWork).toFixed(2),
      'layout+style CPU ms': row.layoutStyleCpuMs.toFixed(1),
      'CPU x floor': (row.layoutStyleCpuMs / floor.layoutStyleCpuMs).toFixed(2),
      'layouts/recalcs': `${row.layouts}/${row.recalcs}`,
      'font lookups': row.fontLookups,
      'commit task @4x ms': Math.round(row.commitTaskMs),
      'long tasks @4x': row.longTasks,
      'longest @4x ms': Math.round(row.longestTaskMs),
      'blocking @4x ms': Math.round(row.blockingMs),
      ...(lighthouse.size
        ? {
            'Lighthouse perf': runsOf(row.page)
              .map((run) => run.performance)
              .join(' / '),
            'TBT ms': runsOf(row.page)
              .map((run) => run['TBT ms'])
              .join(' / '),
            CLS: runsOf(row.page)
              .map((run) => run.CLS)
              .join(' / '),
          }
        : {}),
    }
  })
  const long = pages
    .filter((row) => row.longTasks > 0)
    .map((row) => `${row.page} (${Math.round(row.longestTaskMs)} ms)`)
  const belowFull = pages
    .filter((row) =>
      runsOf(row.page).some(
        (run) => Number(run.performance) < 100 || Number(run['TBT ms']) > LONG_TASK_MS
      )
    )
    .map((row) => row.page)
  const verdict = [
    `floor (plain page): layout ${floor.layoutMs.toFixed(1)} ms + style ${floor.styleMs.toFixed(1)} ms; ${floor.fontLookups} font lookups; at 4x, the commit's task ${Math.round(floor.commitTaskMs)} ms, then ${floor.longTasks} long task(s) (longest ${Math.round(floor.longestTaskMs)} ms)` +
      (lighthouse.size
        ? `; Lighthouse ${runsOf(floor.page)
            .map((run) => `${run.performance} (TBT ${run['TBT ms']} ms)`)
            .join(', ')}`
        : ''),
    ...(pages.length ? [cpuAndLookups(floor, pages)] : []),
    `at 4x throttling, the floor's own commit task ${Math.round(floor.commitTaskMs)} ms, the pages' ${pages.length ? range(pages.map((row) => row.commitTaskMs)) : '–'} ms (no target: no page can go under the floor's, over ${LONG_TASK_MS} ms; docs/performance.md, "Retired targets"); ` +
      (long.length
        ? `a task over ${LONG_TASK_MS} ms after the commit's (median run): ${long.join(', ')}`
        : `no task over ${LONG_TASK_MS} ms after the commit's (median run) on any page`),
    ...(lighthouse.size
      ? [
          belowFull.length
            ? `Lighthouse below 100 or TBT over ${LONG_TASK_MS} ms in a run: ${belowFull.join(', ')}`
            : `Lighthouse 100 with TBT at most ${LONG_TASK_MS} ms in every run of every page`,
        ]
      : []),
  ]
  return { table, verdict }
}

/** The lowest and highest of `values`, in whole milliseconds: `67–91`. @param {number[]} values */
function range(values) {
  const whole = values.map(Math.round)
  return `${Math.min(...whole)}–${Math.max(...whole)}`
}

/**
 * The range over the pages of the two figures no test bounds, since both follow the machine's load
 * (docs/decisions/0031-tests-check-causes-the-bench-measures-amounts.md): layout and style CPU time
 * over the floor's, and the font lookups, beside the floor's.
 * @param {FirstLoadRow} floor
 * @param {FirstLoadRow[]} pages
 */
function cpuAndLookups(floor, pages) {
  const ratios = pages.map((row) => ({
    page: row.page,
    ratio: row.layoutStyleCpuMs / floor.layoutStyleCpuMs,
  }))
  const worst = ratios.reduce((a, b) => (b.ratio > a.ratio ? b : a))
  const lookups = pages.map((row) => row.fontLookups)
  return (
    `layout+style CPU ${Math.min(...ratios.map((r) => r.ratio)).toFixed(1)}-${worst.ratio.toFixed(1)}x the floor's ` +
    `(${floor.layoutStyleCpuMs.toFixed(1)} ms; most: ${worst.page}); font lookups ${Math.min(...lookups)}-${Math.max(...lookups)} a page, ` +
    `the floor's ${floor.fontLookups}`
  )
}

/**
 * The variants' rows (FirstLoadRow labelled `<page> · <variant>`) beside the floor, CPU time only:
 * the step's own table has the wall times, which a busy machine stretches.
 * @param {FirstLoadRow[]} rows the floor first
 */
export function variantTable(rows) {
  const [floor] = rows
  return rows.map((row) => ({
    'page · variant': row.page === FLOOR_PAGE_PATH ? 'plain page (floor)' : row.page,
    'layout+style CPU ms': row.layoutStyleCpuMs.toFixed(1),
    'CPU x floor': (row.layoutStyleCpuMs / floor.layoutStyleCpuMs).toFixed(2),
    'layouts/recalcs': `${row.layouts}/${row.recalcs}`,
    'font lookups': row.fontLookups,
    'longest @4x ms': Math.round(row.longestTaskMs),
  }))
}

/**
 * One page's first load, traced unthrottled: the renderer main thread's time by trace event, each
 * event's own time (its duration less its children's), largest first. Where a first frame goes.
 */
export async function traceBreakdown(url) {
  const { browser } = await launchChromium()
  try {
    const trace = await inFreshTab(browser, async ({ page }) => {
      await page.tracing.start({ categories: TRACE_CATEGORIES })
      await page.goto(url, { waitUntil: 'networkidle0', timeout: 60_000 })
      return readTrace(await page.tracing.stop())
    })
    const { thread, start } = mainThreadTasks(trace.traceEvents, url)
    if (!thread) throw new Error('the trace has no renderer main thread')
    const events = trace.traceEvents
      .filter(
        (event) =>
          event.pid === thread.pid &&
          event.tid === thread.tid &&
          event.ph === 'X' &&
          event.ts >= start
      )
      .sort((a, b) => a.ts - b.ts || b.dur - a.dur)
    /** @type {Map<string, { self: number, selfCpu: number, total: number, count: number }>} */
    const byName = new Map()
    /** @type {any[]} */
    const stack = []
    const selfOf = new Map()
    const selfCpuOf = new Map()
    for (const event of events) {
      while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= event.ts)
        stack.pop()
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
