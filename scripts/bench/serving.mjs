/**
 * Step `serving` (`npm run bench:serving`): throughput, p50/p99 latency and the runtime's CPU time
 * per request, with ratios to the static asset, for four targets: a static asset (the entry
 * module: the runtime's floor), a cached page, a page rendered from cached payloads
 * (X-Cache-Bypass: page) and a full miss (X-Cache-Bypass: all: every payload from the backend);
 * and two that say what the cached page's gap to the entry module is made of: a static asset of
 * the page's own size (its bytes, without the worker) and the harness worker's plain page (the
 * worker invoked, without the site's code and with few bytes). Target: the cached page's CPU per
 * request at most 1.5x the static asset of its size's, and a render's at most 3x, in the same run
 * (CPU per request grows with the machine's load, and these ratios with it: one over its target
 * at a load average above the core count is printed as not judged). Throughput ratios are
 * printed with their rounds' spread, without a target: on this shared two-core machine a ratio's
 * rounds spread wider than any margin a target could set (docs/decisions/0048). They are loaded at the Workers runtime behind wrangler
 * dev's proxy (scripts/lib/local-site.mjs, findRuntimeOrigin), and the static asset and the cached
 * page through the proxy too, for comparison: the proxy passes every HTML response through an
 * HTMLRewriter for its live-reload script, which a deployment never does.
 *
 * After a 2 s warm-up each, the targets take turns in BENCH_ROUNDS rounds (default 3) of
 * BENCH_SECONDS each (default 5), in reverse order every other round, so that a machine that
 * speeds up or slows down during the run weighs on every target alike; the ratio's spread over
 * the rounds is printed with it. docs/decisions/0002-page-cache.md, "Measuring".
 */
import { readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import autocannon from 'autocannon'
import { findRuntimeOrigin, processesOf, ROOT } from '../lib/local-site.mjs'
import { FLOOR_PAGE_PATH } from './first-load.mjs'
import { BROWSER, kb, loadAverage, median } from './shared.mjs'

const SECONDS = Number(process.env.BENCH_SECONDS) || 5
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 3
const CONNECTIONS = 10
/** USER_HZ: /proc counts CPU time in hundredths of a second on Linux. */
const CLOCK_TICKS = 100
/** The cached page's CPU per request may be at most this many times a static asset of its size's. */
export const SERVING_TARGET_CPU_RATIO = 1.5
/** A render from cached payloads may cost at most this many times a static asset of the page's size's CPU. */
export const RENDER_TARGET_CPU_RATIO = 3

export const step = {
  name: 'serving',
  title: 'Serving: throughput, latency and CPU per request',
  usesSite: true,
  async run({ site, token, report }) {
    const { origin, processGroup } = site
    const runtime = (await findRuntimeOrigin(site)) ?? origin
    const home = await (await fetch(`${origin}/en`, { headers: BROWSER })).text()
    // The entry module: a hashed static file every page links.
    const asset = /<script type="module" src="([^"]+)"/.exec(home)?.[1]
    if (!asset) throw new Error('the home page links no entry script')

    const viaProxy =
      runtime === origin
        ? []
        : [
            { name: 'static asset, via dev proxy', origin, path: asset, headers: {} },
            { name: 'cached page, via dev proxy', origin, path: '/en', headers: {} },
          ]
    const sameSize = await staticAssetOfPageSize(runtime)
    const targets = [
      { name: 'static asset', origin: runtime, path: asset, headers: {} },
      { name: 'cached page', origin: runtime, path: '/en', headers: {} },
      {
        name: 'rendered (payloads cached)',
        origin: runtime,
        path: '/en',
        headers: { 'X-Cache-Bypass': 'page', 'X-Cache-Bypass-Token': token },
      },
      {
        name: 'full miss (backend)',
        origin: runtime,
        path: '/en',
        headers: { 'X-Cache-Bypass': 'all', 'X-Cache-Bypass-Token': token },
      },
      ...viaProxy,
      {
        name: 'worker without the site (the plain page)',
        origin: runtime,
        path: FLOOR_PAGE_PATH,
        headers: {},
      },
      {
        name: `static asset of the page's size (${sameSize.path.split('/').pop()}, ${kb(sameSize.gzipBytes)} KB gzip)`,
        origin: runtime,
        path: sameSize.path,
        headers: {},
      },
    ].map((target) => ({ ...target, runs: [] }))
    const assetBytes = (await (await fetch(origin + asset)).arrayBuffer()).byteLength
    report.text(
      `\nThroughput: ${CONNECTIONS} connections; ${ROUNDS} rounds of ${SECONDS} s per target, taking turns; static asset ${asset} (${kb(assetBytes)} KB)`
    )
    report.text(
      runtime === origin
        ? `Measured through wrangler dev's proxy at ${origin}: the runtime behind it was not found (Linux only)`
        : `Measured at the runtime, behind wrangler dev's proxy`
    )
    // CPU ratios grow with the machine's load (the render's most: more work for other processes to
    // disturb), so one over its target on a machine busier than its cores is not judged.
    const loadBefore = os.loadavg()[0]
    const cores = os.cpus().length
    const verdict = (ratio, target) =>
      ratio <= target
        ? 'met'
        : loadBefore > cores
          ? `over it, not judged: load average ${loadBefore.toFixed(1)} on ${cores} cores, which adds to this ratio`
          : 'missed'
    report.text(`Load average before: ${loadAverage()}\n`)
    for (const target of targets) await load(target.origin + target.path, target.headers, 2)
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? targets : [...targets].reverse()
      for (const target of order) {
        const cpuBefore = cpuSeconds(processGroup)
        const run = await load(target.origin + target.path, target.headers, SECONDS)
        target.runs.push({ ...run, cpu: cpuSeconds(processGroup) - cpuBefore })
      }
    }

    const rows = targets.map(summarize)
    // Each row against the static asset served the same way: at the runtime, or through the proxy.
    const floorOf = (index) =>
      rows[
        targets.findIndex(
          (target) => target.origin === targets[index].origin && target.path === asset
        )
      ] ?? rows[0]
    report.table(
      rows.map((row, index) => ({
        target: row.name,
        'req/s': Math.round(row.rps),
        'x static': (row.rps / floorOf(index).rps).toFixed(2),
        'p50 ms': row.p50,
        'p99 ms': row.p99,
        'CPU ms/req': row.cpuPerRequest.toFixed(2),
        'non-2xx': row.non2xx,
        errors: row.errors,
      }))
    )
    report.text(
      'req/s: all requests over all rounds; p50 and p99: the median over the rounds; CPU: wrangler and workerd'
    )
    const [entry, cached, rendered] = targets.map(summarize)
    const plain = summarize(targets.at(-2))
    const sized = summarize(targets.at(-1))
    const ratio = (row, floor) => (row.rps / floor.rps).toFixed(2)
    const cpuRatio = cached.cpuPerRequest / sized.cpuPerRequest
    report.text(
      `cached page CPU per request: ${cpuRatio.toFixed(2)}x a static asset of its size's (${cached.cpuPerRequest.toFixed(2)} ms against ${sized.cpuPerRequest.toFixed(2)} ms; ${kb(sameSize.gzipBytes)} KB gzip, the page ${kb(sameSize.pageGzipBytes)} KB) (target: at most ${SERVING_TARGET_CPU_RATIO}x: ${verdict(cpuRatio, SERVING_TARGET_CPU_RATIO)})`
    )
    const renderRatio = rendered.cpuPerRequest / sized.cpuPerRequest
    report.text(
      `render from cached payloads, CPU per request: ${renderRatio.toFixed(2)}x a static asset of the page's size's (${rendered.cpuPerRequest.toFixed(2)} ms) (target: at most ${RENDER_TARGET_CPU_RATIO}x: ${verdict(renderRatio, RENDER_TARGET_CPU_RATIO)})`
    )
    report.text(
      `cached page throughput: ${ratio(cached, sized)}x a static asset of its size (rounds: ${spread(targets.at(-1), targets[1])}; no target: the rounds spread too wide on a shared machine)`
    )
    report.text(
      `against the entry module (${kb(assetBytes)} KB): the cached page ${ratio(cached, entry)}x (rounds: ${spread(targets[0], targets[1])}); the bytes alone, a static asset of the page's size, ${ratio(sized, entry)}x; the worker alone, its plain page (no site code, ${kb(plain.bytesPerRequest)} KB a response with its headers), ${ratio(plain, entry)}x; CPU per request: entry module ${entry.cpuPerRequest.toFixed(2)} ms, plain page ${plain.cpuPerRequest.toFixed(2)} ms, page-sized asset ${sized.cpuPerRequest.toFixed(2)} ms, cached page ${cached.cpuPerRequest.toFixed(2)} ms`
    )
    if (viaProxy.length)
      report.text(`through wrangler dev's proxy: ${slowdown(targets[4], targets[5])}`)
  },
}

/**
 * The built client file whose gzip size is nearest the cached page's as the runtime sends it: the
 * entry module (the floor above) is a tenth of a page's bytes, and bytes cost throughput on this
 * machine, where the load generator shares the two cores.
 */
async function staticAssetOfPageSize(runtime) {
  // fetch() decodes the body: the page's gzip size, as the bytes of every page are measured.
  const page = await fetch(`${runtime}/en`, { headers: BROWSER })
  const pageGzipBytes = gzipSync(Buffer.from(await page.arrayBuffer())).byteLength
  const dir = path.join(ROOT, 'public/assets')
  const files = readdirSync(dir).filter((name) => /\.(js|css)$/.test(name))
  const sized = files.map((name) => ({
    path: `/assets/${name}`,
    gzipBytes: gzipSync(readFileSync(path.join(dir, name))).byteLength,
  }))
  const nearest = sized.sort(
    (a, b) => Math.abs(a.gzipBytes - pageGzipBytes) - Math.abs(b.gzipBytes - pageGzipBytes)
  )[0]
  if (!nearest) throw new Error(`no built client file in ${dir}: run npm run build`)
  return { ...nearest, pageGzipBytes }
}

/** `page`'s throughput over `floor`'s in each round: the lowest and highest. */
function spread(floor, page) {
  const perRound = page.runs.map((run, round) => run.rps / floor.runs[round].rps)
  return `${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)}`
}

/** How many times slower `page` is than `floor`, over all rounds, and the spread of the rounds. */
function slowdown(floor, page) {
  const perRound = floor.runs.map((run, round) => run.rps / page.runs[round].rps)
  const pooled = summarize(floor).rps / summarize(page).rps
  return `${pooled.toFixed(2)}x slower (rounds: ${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)})`
}

/** One target's rounds as one row: pooled throughput, median latencies, CPU per request. */
function summarize({ name, runs }) {
  const sum = (pick) => runs.reduce((total, run) => total + pick(run), 0)
  const requests = sum((run) => run.requests)
  return {
    name,
    rps: requests / sum((run) => run.seconds),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    cpuPerRequest: (sum((run) => run.cpu) / requests) * 1000,
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    bytesPerRequest: sum((run) => run.bytes) / requests,
  }
}

/** A run of `seconds` against `url`; latencies in ms. */
async function load(url, headers, seconds) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    headers: { ...BROWSER, ...headers },
    duration: seconds,
  })
  return {
    requests: result.requests.total,
    seconds: result.duration,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytes: result.throughput.total,
  }
}

/**
 * CPU seconds (user + system) used so far by the processes of a process group: wrangler and the
 * workerd serving both workers. Linux only (/proc); elsewhere NaN, printed as such.
 */
function cpuSeconds(processGroup) {
  try {
    const ticks = processesOf(processGroup).reduce(
      (total, { stat }) => total + Number(stat[11]) + Number(stat[12]),
      0
    )
    return ticks / CLOCK_TICKS
  } catch {
    return NaN
  }
}
