/**
 * What a Chromium trace of one page load says about that page's first load, for the bench
 * (scripts/bench/first-load.mjs). A trace covers the whole browser: every figure here is read from
 * the renderer that loaded the page. Both figures follow the machine's load (the CPU time, and the
 * font lookups too: a layout that runs before the web fonts arrive looks up the fallbacks), so no
 * test bounds them; tests/e2e/first-load.spec.ts checks the stylesheet rules that keep them down
 * (docs/decisions/0031-tests-check-causes-the-bench-measures-amounts.md).
 */

/** The categories these readers need: CommitLoad, Layout and UpdateLayoutTree with thread times, font lookups. */
export const FIRST_LOAD_TRACE_CATEGORIES = ['devtools.timeline', 'fonts']

/**
 * The renderer's synchronous calls to the system's fonts (Linux: a round trip to the browser process
 * each, in the middle of a layout): local() names, family matches, render styles per strike. How
 * many depends on how many layouts run before the web fonts arrive: 25-30 a page on a quiet
 * machine, up to 89 on a busy one.
 */
const FONT_LOOKUPS = /^(WebSandboxSupportLinux::|FontDataService::)/

/**
 * The process that loaded `url`: the one whose main frame committed it, or, in a trace that missed
 * the commit, the one that laid out the most.
 * @param {any[]} events
 * @param {string} url
 * @returns {number | undefined}
 */
export function rendererOf(events, url) {
  const commit = events.find(
    (event) =>
      event.name === 'CommitLoad' && event.args?.data?.isMainFrame && event.args?.data?.url === url
  )
  if (commit) return commit.pid
  /** @type {Map<number, number>} */
  const layouts = new Map()
  for (const event of events)
    if (event.name === 'Layout' && event.ph === 'X')
      layouts.set(event.pid, (layouts.get(event.pid) ?? 0) + 1)
  return [...layouts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0]
}

/**
 * The page's layout and style work in CPU time (the trace's thread time, which a busy machine
 * inflates far less than wall time), in ms, and its synchronous font lookups.
 * @param {any[]} events
 * @param {string} url
 * @returns {{ layoutStyleCpuMs: number, fontLookups: number }}
 */
export function firstLoadWork(events, url) {
  const pid = rendererOf(events, url)
  if (pid === undefined) return { layoutStyleCpuMs: NaN, fontLookups: NaN }
  const own = events.filter((event) => event.pid === pid && event.ph === 'X')
  // Style recalculation runs inside layout too (container queries): count each moment once.
  const work = own
    .filter((event) => event.name === 'Layout' || event.name === 'UpdateLayoutTree')
    .sort((a, b) => a.ts - b.ts)
  let cpu = 0
  let coveredUntil = -Infinity
  for (const event of work) {
    if (event.ts + event.dur <= coveredUntil) continue
    cpu += (event.tdur ?? 0) / 1000
    coveredUntil = event.ts + event.dur
  }
  return {
    layoutStyleCpuMs: cpu,
    fontLookups: own.filter((event) => FONT_LOOKUPS.test(event.name)).length,
  }
}
