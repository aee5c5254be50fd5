/**
 * `npm run bench`: what a visit costs, on this machine, in one run.
 *
 * 1. Seeds the local content service (`npm run content:setup`) and starts the site under
 *    `wrangler dev` on a free loopback port (scripts/local-site.mjs), with a random
 *    CACHE_BYPASS_TOKEN so the bench alone can skip the caches (docs/decisions/0002-page-cache.md).
 * 2. Runs Lighthouse (mobile, its defaults) on the home page in the browser tests' Chromium,
 *    BENCH_LIGHTHOUSE_RUNS times (default 3), and reports the median run by performance score, as
 *    Lighthouse's documentation advises for a score that varies from run to run. It runs first,
 *    on a machine the load tests have not heated up, against a warm page cache.
 * 3. Loads four targets with autocannon and prints requests/s, p50/p99 latency and the runtime's
 *    CPU time per request, with ratios to the static asset: a static asset (the entry module: the
 *    runtime's floor), a cached page, a page rendered from cached payloads (X-Cache-Bypass: page)
 *    and a full miss (X-Cache-Bypass: all: every payload from the backend). They are loaded at the
 *    Workers runtime behind wrangler dev's proxy (scripts/local-site.mjs, findRuntimeOrigin), and
 *    the static asset and the cached page through the proxy too, for comparison. After a 2 s warm-up
 *    each, the targets take turns in BENCH_ROUNDS rounds (default 3) of BENCH_SECONDS each
 *    (default 5), in reverse order every other round, so that a machine that speeds up or slows
 *    down during the run weighs on every target alike; the ratio's spread over the rounds is
 *    printed with it.
 * 4. Prints the HTML, CSS and JS bytes (gzip) of all 4 pages in all 3 languages.
 * 5. Images (scripts/bench-images.mjs), for the bundled content and then for camera uploads (a
 *    second site under `wrangler dev` whose API_HOST is the camera-uploads backend,
 *    scripts/camera-uploads/: 4000×3000 JPEGs of 2–6 MB): the image bytes a phone (375 px, DPR 2)
 *    receives scrolling each of the 12 pages and the largest oversize ratio, then Lighthouse on
 *    BENCH_IMAGE_LIGHTHOUSE_PATH (default `/` and `/en/about`). Each site is visited once before
 *    it is measured, so the route's transforms are cached as they are at the edge after a photo's
 *    first visitor (the first transform of a 4000-px photo is local sharp CPU time, not a visit).
 *
 * 6. Navigations (scripts/bench-navigations.mjs): for every pair of the navbar's pages in English,
 *    the time from a click (after a 200 ms hover) to the new page's paint, and from going back to
 *    the old page's, with the speculation rules and without, with and without 4x CPU slowdown, and
 *    the same on plain pages with nothing to load: this machine's floor.
 * 7. The image route's fences (scripts/bench-image-abuse.mjs, a site of its own): downloads and
 *    transforms per 100 respelled image addresses, and workerd's memory under 20 concurrent misses
 *    of 24 MB originals. BENCH_ONLY=image-abuse runs it alone; BENCH_SKIP_IMAGE_ABUSE=1 skips it.
 *
 * BENCH_SKIP_LIGHTHOUSE=1 skips step 2 (and Lighthouse in step 5); BENCH_ONLY=lighthouse runs step 2
 * alone; BENCH_ONLY=images runs step 5 alone; BENCH_SKIP_IMAGES=1 skips step 5;
 * BENCH_LIGHTHOUSE_PATH=/ru/contact-us points it at another page, or at several, comma-separated
 * (BENCH_LIGHTHOUSE_PATH=/,/ru/about), with a summary of their median runs at the end.
 * BENCH_IMAGE_CONTENT=camera (or bundled) runs step 5 for that content alone.
 * BENCH_ONLY=serving runs steps 3 and 4 alone (no simulation either);
 * BENCH_ONLY=navigations runs step 6 alone; BENCH_SKIP_NAVIGATIONS=1 skips it;
 * BENCH_NAVIGATION_RUNS (3) is the runs per pair and mode.
 * BENCH_TIMEOUT_MINUTES (default 15) bounds the whole run.
 * Everything stays on 127.0.0.1.
 */
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import autocannon from 'autocannon'
import lighthouse from 'lighthouse'
import { startHeaderDroppingProxy } from './header-dropping-proxy.mjs'
import { CHROMIUM_ARGS, chromiumPath, chromiumVersion } from './chromium-path.mjs'
import { findRuntimeOrigin, freePort, processesOf, ROOT, startSite } from './local-site.mjs'
import { imageVerdict, measureImages } from './bench-images.mjs'
import { measureNavigations, navigationVerdict } from './bench-navigations.mjs'
import { measureImageAbuse } from './bench-image-abuse.mjs'
import { startCameraBackend } from './camera-uploads/server.mjs'

const SECONDS = Number(process.env.BENCH_SECONDS) || 5
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 3
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS) || 3
const ONLY_LIGHTHOUSE = process.env.BENCH_ONLY === 'lighthouse'
const ONLY_IMAGES = process.env.BENCH_ONLY === 'images'
const ONLY_NAVIGATIONS = process.env.BENCH_ONLY === 'navigations'
const ONLY_SERVING = process.env.BENCH_ONLY === 'serving'
if (process.env.BENCH_ONLY === 'image-abuse') {
  await measureImageAbuse()
  process.exit(0)
}
/** Step 5's contents: 'bundled', 'camera', or both (unset). */
const IMAGE_CONTENT = process.env.BENCH_IMAGE_CONTENT
/** The pages Lighthouse loads in step 5, for each content. */
const IMAGE_LIGHTHOUSE_PATHS = (process.env.BENCH_IMAGE_LIGHTHOUSE_PATH || '/,/en/about').split(',').map((page) => page.trim()).filter(Boolean)
/** The pages Lighthouse loads: the home page, which the issue's target names, unless set. */
const LIGHTHOUSE_PATHS = (process.env.BENCH_LIGHTHOUSE_PATH || '/').split(',').map((page) => page.trim()).filter(Boolean)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS) || 10
/** USER_HZ: /proc counts CPU time in hundredths of a second on Linux. */
const CLOCK_TICKS = 100
/** The navbar's pages and a project's page (issue 31) of the bundled content. */
const PAGES = ['/', '/about', '/enterprises', '/contact-us', '/enterprises/1-arabkir-residence']
const PREFIXES = ['', '/en', '/ru']
/** What a browser sends; the runtime compresses text for clients that accept it. */
const BROWSER = { Accept: 'text/html,*/*', 'Accept-Encoding': 'gzip, br' }

/** A bound on the whole run (BENCH_TIMEOUT_MINUTES, default 15; Lighthouse on all 12 pages needs about 30). */
const TIMEOUT_MINUTES = Number(process.env.BENCH_TIMEOUT_MINUTES) || 15
/** Lighthouse gave up on a run (lhr.runtimeError): worth running again (lighthouseOn). */
class LighthouseRuntimeError extends Error {}

/** Lighthouse's loopback proxies, one per site origin (proxyFor). */
const proxies = new Map()

const guard = setTimeout(() => fail(new Error(`the bench took over ${TIMEOUT_MINUTES} minutes`)), TIMEOUT_MINUTES * 60_000)
guard.unref()

console.log(machine())
execFileSync('npm', ['run', '--silent', 'content:setup'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
const token = randomBytes(16).toString('hex')
const site = await startSite({
  vars: { CACHE_BYPASS_TOKEN: token },
  production: true,
  logFile: path.join(ROOT, '.wrangler/bench/wrangler.log'),
})
try {
  // Lighthouse first (step 2): it times the page, not the bench's own load.
  if (ONLY_IMAGES || ONLY_NAVIGATIONS || ONLY_SERVING) {
    // Step 3 and 4, 5 or 6 alone.
  } else if (process.env.BENCH_SKIP_LIGHTHOUSE) console.log('\nLighthouse skipped (BENCH_SKIP_LIGHTHOUSE)')
  else {
    const medians = []
    for (const pagePath of LIGHTHOUSE_PATHS) {
      const page = new URL(pagePath, site.origin).href
      for (let warm = 0; warm < 3; warm++) await (await fetch(page, { headers: BROWSER })).arrayBuffer()
      medians.push({ page: pagePath, ...(await runLighthouse(page)) })
    }
    if (medians.length > 1) {
      console.log('\nLighthouse, the median run of each page:')
      console.table(medians)
    }
  }
  if (!ONLY_LIGHTHOUSE && !ONLY_IMAGES && !ONLY_NAVIGATIONS) await measureServing(site)
  if (ONLY_SERVING) {
    // Steps 3 and 4 alone: no images, navigations, image abuse or simulation.
    await site.stop()
    process.exit(0)
  }
  if (ONLY_IMAGES || (!ONLY_LIGHTHOUSE && !ONLY_NAVIGATIONS && !process.env.BENCH_SKIP_IMAGES)) await measureImageScenarios(site)
  if (ONLY_NAVIGATIONS || (!ONLY_LIGHTHOUSE && !ONLY_IMAGES && !process.env.BENCH_SKIP_NAVIGATIONS)) await measureNavigationFigures(site)
} catch (error) {
  await site.stop()
  fail(error)
}
await site.stop()
// Step 7: the image route's fences, on a site of its own (scripts/bench-image-abuse.mjs).
if (!ONLY_LIGHTHOUSE && !ONLY_IMAGES && !ONLY_NAVIGATIONS && !process.env.BENCH_SKIP_IMAGE_ABUSE) await measureImageAbuse().catch(fail)
// Freshness across the network, simulated (issue 13): scripts/simulate-network.mjs.
console.log('')
await (await import('./simulate-network.mjs')).simulateNetwork()
process.exit(0)

/**
 * Steps 3 and 4: throughput, latency and CPU per target, then the bytes of every page. The targets
 * are loaded at the Workers runtime itself; wrangler dev's proxy in front of it passes every HTML
 * response through an HTMLRewriter for its live-reload script, which a deployment never does, so
 * the static asset and the cached page are also loaded through that proxy, for comparison.
 */
async function measureServing(site) {
  const { origin, processGroup } = site
  const runtime = (await findRuntimeOrigin(site)) ?? origin
  const home = await (await fetch(`${origin}/en`, { headers: BROWSER })).text()
  // The entry module: a hashed static file every page links.
  const asset = /<script type="module" src="([^"]+)"/.exec(home)?.[1]
  if (!asset) throw new Error('the home page links no entry script')

  const viaProxy = runtime === origin ? [] : [
    { name: 'static asset, via dev proxy', origin, path: asset, headers: {} },
    { name: 'cached page, via dev proxy', origin, path: '/en', headers: {} },
  ]
  const sameSize = await staticAssetOfPageSize(runtime)
  const targets = [
    { name: 'static asset', origin: runtime, path: asset, headers: {} },
    { name: 'cached page', origin: runtime, path: '/en', headers: {} },
    { name: 'rendered (payloads cached)', origin: runtime, path: '/en', headers: { 'X-Cache-Bypass': 'page', 'X-Cache-Bypass-Token': token } },
    { name: 'full miss (backend)', origin: runtime, path: '/en', headers: { 'X-Cache-Bypass': 'all', 'X-Cache-Bypass-Token': token } },
    ...viaProxy,
    { name: `static asset of the page's size (${sameSize.path.split('/').pop()}, ${kb(sameSize.gzipBytes)} KB gzip)`, origin: runtime, path: sameSize.path, headers: {} },
  ].map((target) => ({ ...target, runs: [] }))
  const assetBytes = (await (await fetch(origin + asset)).arrayBuffer()).byteLength
  console.log(`\nThroughput: ${CONNECTIONS} connections; ${ROUNDS} rounds of ${SECONDS} s per target, taking turns; static asset ${asset} (${kb(assetBytes)} KB)`)
  console.log(runtime === origin
    ? `Measured through wrangler dev's proxy at ${origin}: the runtime behind it was not found (Linux only)`
    : `Measured at the runtime, ${runtime}, behind wrangler dev's proxy at ${origin}`)
  console.log(`Load average before: ${os.loadavg().map((load) => load.toFixed(1)).join(' ')}\n`)
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
  const floorOf = (index) => rows[targets.findIndex((target) => target.origin === targets[index].origin && target.path === asset)] ?? rows[0]
  console.table(
    rows.map((row, index) => ({
      target: row.name,
      'req/s': Math.round(row.rps),
      'x static': (row.rps / floorOf(index).rps).toFixed(2),
      'p50 ms': row.p50,
      'p99 ms': row.p99,
      'CPU ms/req': row.cpuPerRequest.toFixed(2),
      'non-2xx': row.non2xx,
      errors: row.errors,
    })),
  )
  console.log('req/s: all requests over all rounds; p50 and p99: the median over the rounds; CPU: wrangler and workerd')
  console.log(`cached page / static asset throughput: ${slowdown(targets[0], targets[1])} (target: within 1.5x)`)
  const sameSizeRatio = summarize(targets[1]).rps / summarize(targets.at(-1)).rps
  console.log(`cached page throughput: ${(summarize(targets[1]).rps / summarize(targets[0]).rps).toFixed(2)}x the static asset's (target: at least 0.9x), ${sameSizeRatio.toFixed(2)}x a static asset of its size (${kb(sameSize.gzipBytes)} KB gzip, the page ${kb(sameSize.pageGzipBytes)} KB)`)
  if (viaProxy.length) console.log(`through wrangler dev's proxy: ${slowdown(targets[4], targets[5])}`)

  console.log('\nBytes per page, gzip -6 of what is served. HTML includes the inlined site CSS; CSS is that')
  console.log('plus the islands\' stylesheets; JS is everything the page can run: the entry, the hydration')
  console.log('runtime, the islands it renders and the telemetry reporter, all loaded after the load event')
  console.log('(the carousel on scroll).\n')
  console.table(await pageWeights(origin))
}

/**
 * The built client file whose gzip size is nearest the cached page's as the runtime sends it: the
 * entry module (the floor above) is a tenth of a page's bytes, and bytes cost throughput on this
 * machine, where the load generator shares the two cores.
 */
async function staticAssetOfPageSize(runtime) {
  // fetch() decodes the body: the page's gzip size, as the bytes of every page below are measured.
  const page = await fetch(`${runtime}/en`, { headers: BROWSER })
  const pageGzipBytes = gzipSync(Buffer.from(await page.arrayBuffer())).byteLength
  const dir = path.join(ROOT, 'public/assets')
  const files = readdirSync(dir).filter((name) => /\.(js|css)$/.test(name))
  const sized = files.map((name) => ({ path: `/assets/${name}`, gzipBytes: gzipSync(readFileSync(path.join(dir, name))).byteLength }))
  const nearest = sized.sort((a, b) => Math.abs(a.gzipBytes - pageGzipBytes) - Math.abs(b.gzipBytes - pageGzipBytes))[0]
  if (!nearest) throw new Error(`no built client file in ${dir}: run npm run build`)
  return { ...nearest, pageGzipBytes }
}

/** Step 5: images on a phone and Lighthouse, for the bundled content, then for camera uploads. */
async function measureImageScenarios(site) {
  const paths = PREFIXES.flatMap((prefix) => PAGES.map((page) => (page === '/' ? prefix || '/' : `${prefix}${page}`)))
  if (IMAGE_CONTENT !== 'camera') await imageFigures('bundled content', site.origin, paths)
  if (IMAGE_CONTENT === 'bundled') return
  const backend = await startCameraBackend({ port: 0 })
  const camera = await startSite({
    vars: { API_HOST: backend.origin },
    production: true,
    persistTo: path.join(ROOT, '.wrangler/bench/camera-state'),
    logFile: path.join(ROOT, '.wrangler/bench/wrangler-camera.log'),
  })
  try {
    await imageFigures(`camera uploads (CMS at ${backend.origin})`, camera.origin, paths)
  } finally {
    await camera.stop()
    await backend.close()
  }
}

async function imageFigures(content, origin, paths) {
  console.log(`\nImages on a phone (375 px, DPR 2, empty browser cache), ${content}; visiting every page once first...`)
  await measureImages(origin, paths)
  const rows = await measureImages(origin, paths)
  console.table(rows)
  console.log(`${content}: ${imageVerdict(rows)}`)
  if (process.env.BENCH_SKIP_LIGHTHOUSE) return
  const medians = []
  for (const pagePath of IMAGE_LIGHTHOUSE_PATHS) medians.push({ content, page: pagePath, ...(await runLighthouse(new URL(pagePath, origin).href)) })
  console.log(`\nLighthouse, ${content}, the median run of each page:`)
  console.table(medians)
}

/** Step 6: click → paint and back → paint between the navbar's pages, with and without the speculation rules. */
async function measureNavigationFigures(site) {
  console.log(`\nNavigations between the navbar's pages (/en), hover 200 ms then click, then back; Chromium ${chromiumVersion(await chromiumPath())}...`)
  const rows = await measureNavigations(site.origin)
  console.table(rows)
  console.log(navigationVerdict(rows))
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
  }
}

/** A run of `seconds` against `url`; latencies in ms. */
async function load(url, headers, seconds) {
  const result = await autocannon({ url, connections: CONNECTIONS, headers: { ...BROWSER, ...headers }, duration: seconds })
  return {
    requests: result.requests.total,
    seconds: result.duration,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  }
}

/**
 * CPU seconds (user + system) used so far by the processes of a process group: wrangler and the
 * workerd serving both workers. Linux only (/proc); elsewhere NaN, printed as such.
 */
function cpuSeconds(processGroup) {
  try {
    const ticks = processesOf(processGroup).reduce((total, { stat }) => total + Number(stat[11]) + Number(stat[12]), 0)
    return ticks / CLOCK_TICKS
  } catch {
    return NaN
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

async function pageWeights(origin) {
  const gzipped = new Map()
  const sizeOf = async (url) => {
    if (!gzipped.has(url)) {
      const response = await fetch(url, { headers: BROWSER })
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`)
      gzipped.set(url, gzipSync(Buffer.from(await response.arrayBuffer()), { level: 6 }).byteLength)
    }
    return gzipped.get(url)
  }
  const rows = []
  for (const prefix of PREFIXES) {
    for (const page of PAGES) {
      const pagePath = page === '/' ? prefix || '/' : `${prefix}${page}`
      const response = await fetch(origin + pagePath, { headers: BROWSER })
      const html = await response.text()
      const links = linksOf(html)
      const sum = async (list) => (await Promise.all(list.map((href) => sizeOf(new URL(href, origin).href)))).reduce((a, b) => a + b, 0)
      const inlineCss = [...html.matchAll(/<style>([^<]*)<\/style>/g)].reduce((total, [, css]) => total + gzipSync(Buffer.from(css), { level: 6 }).byteLength, 0)
      const [css, js] = [await sum(links.css), await sum(links.js)]
      const htmlGzip = gzipSync(Buffer.from(html), { level: 6 }).byteLength
      rows.push({ page: pagePath, status: response.status, 'HTML KB': kb(htmlGzip), 'CSS KB': kb(inlineCss + css), 'JS KB': kb(js), 'total KB': kb(htmlGzip + css + js) })
    }
  }
  const served = await fetch(`${origin}/en`, { headers: BROWSER })
  console.log(`(the local runtime sends pages with Content-Encoding: ${served.headers.get('Content-Encoding') ?? 'none'})`)
  return rows
}

/**
 * The stylesheets and scripts a page can load: those it links (scripts, modulepreloads,
 * stylesheets), and, for each island it renders, the hydration runtime and the island's chunks and
 * stylesheets from the client manifest (src/generated/client-manifest.ts), which the entry loads.
 */
function linksOf(html) {
  const css = new Set()
  const js = new Set()
  for (const [tag] of html.matchAll(/<(?:link|script)\b[^>]*>/gi)) {
    const attr = (name) => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1]
    const rel = attr('rel')
    if (tag.startsWith('<script') && attr('src')) js.add(attr('src'))
    else if (rel === 'stylesheet' && attr('href')) css.add(attr('href'))
    else if (rel === 'modulepreload' && attr('href')) js.add(attr('href'))
  }
  const manifest = clientManifest()
  // What the entry imports itself, and the telemetry reporter it loads on every page after the load event.
  if (js.size > 0) for (const href of [...(manifest.entryPreload ?? []), telemetryChunk()]) js.add(href)
  for (const [, name] of html.matchAll(/<div data-island="([\w-]+)"/g)) {
    for (const href of manifest.hydrate) js.add(href)
    for (const href of manifest.islands[name]?.js ?? []) js.add(href)
    for (const href of manifest.islands[name]?.css ?? []) css.add(href)
  }
  return { css: [...css], js: [...js] }
}

/** The telemetry reporter's chunk (client/telemetry/reporter.ts), which the manifest does not list. */
function telemetryChunk() {
  const name = readdirSync(path.join(ROOT, 'public/assets/chunks')).find((file) => /^reporter-[\w-]+\.js$/.test(file))
  if (!name) throw new Error('the build wrote no telemetry reporter chunk (public/assets/chunks/reporter-*.js)')
  return `/assets/chunks/${name}`
}

/** The manifest the build wrote (a TypeScript module holding one JSON object). */
function clientManifest() {
  const source = readFileSync(path.join(ROOT, 'src/generated/client-manifest.ts'), 'utf8')
  return JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1))
}

/**
 * Lighthouse on one page, after a run that is not counted (it fills the image route's cache);
 * returns the median run's scores and timings. This Chromium
 * (@sparticuz/chromium 147) cancels any navigation whose response carries a Referrer-Policy header
 * while Lighthouse's trace is recording (net::ERR_ABORTED, FAILED_DOCUMENT_REQUEST; the same page
 * loads fine untraced), so Lighthouse reaches the site through a loopback proxy that drops that
 * one header, which no Lighthouse audit reads.
 */
async function runLighthouse(url) {
  const proxy = await proxyFor(new URL(url).origin)
  const target = new URL(new URL(url).pathname, proxy.origin).href
  const loadBefore = os.loadavg().map((load) => load.toFixed(1)).join(' ')
  // Not counted: the page's first visitor through this origin waits for the image encoder (sharp,
  // locally), which in production happens once per photo, size and format, not once per visit.
  await lighthouseOn(target)
  const runs = []
  for (let run = 0; run < LIGHTHOUSE_RUNS; run++) runs.push(await lighthouseOn(target))
  const score = (lhr, id) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
  const audit = (lhr, id) => lhr.audits[id]?.numericValue ?? NaN
  const row = (lhr) => ({
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    'best-practices': score(lhr, 'best-practices'),
    seo: score(lhr, 'seo'),
    'FCP ms': Math.round(audit(lhr, 'first-contentful-paint')),
    'LCP ms': Math.round(audit(lhr, 'largest-contentful-paint')),
    'TBT ms': Math.round(audit(lhr, 'total-blocking-time')),
    CLS: audit(lhr, 'cumulative-layout-shift').toFixed(3),
    'bytes KB': Math.round(audit(lhr, 'total-byte-weight') / 1024),
  })
  // The median run by performance score, then by LCP: Lighthouse's own advice for variable scores.
  const ranked = [...runs].sort((a, b) => score(a, 'performance') - score(b, 'performance') || audit(b, 'largest-contentful-paint') - audit(a, 'largest-contentful-paint'))
  const median = ranked[Math.floor((ranked.length - 1) / 2)]
  const executable = await chromiumPath()
  console.log(`\nLighthouse ${median.lighthouseVersion}, ${median.configSettings.formFactor}, ${chromiumVersion(executable)}: ${url}, ${runs.length} run(s); load average before: ${loadBefore}\n`)
  console.table(runs.map((lhr) => ({ run: runs.indexOf(lhr) + 1, ...row(lhr), median: lhr === median ? '<-' : '' })))
  console.log('Median run:')
  console.table([row(median)])
  const failing = Object.values(median.categories).flatMap((category) =>
    category.auditRefs
      .filter((ref) => ref.weight > 0 && (median.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${category.id}: ${ref.id} (${median.audits[ref.id].displayValue ?? median.audits[ref.id].score})`),
  )
  if (failing.length) console.log(`Audits below full marks in the median run:\n  ${failing.join('\n  ')}`)
  const slug = new URL(url).pathname.replace(/\W+/g, '-').replace(/^-|-$/g, '')
  const report = path.join(ROOT, `.wrangler/bench/lighthouse${slug ? `-${slug}` : ''}.json`)
  mkdirSync(path.dirname(report), { recursive: true })
  writeFileSync(report, JSON.stringify(median))
  console.log(`Full report of the median run: ${path.relative(ROOT, report)}`)
  return row(median)
}

/**
 * One proxy per site for the whole bench, so the site keeps one origin as it has in production:
 * the image route caches renditions per origin, and a new port for each page would make each
 * page's first run wait for the encoder again. Closed when the process exits.
 */
function proxyFor(origin) {
  if (!proxies.has(origin)) {
    const started = startHeaderDroppingProxy(origin, 'referrer-policy')
    proxies.set(origin, started)
  }
  return proxies.get(origin)
}

/**
 * One Lighthouse run in a fresh Chromium profile; the report (LHR). A run Lighthouse itself gives
 * up on (a runtime error such as NO_NAVSTART, "Please run Lighthouse again") is run again, twice
 * at most.
 */
async function lighthouseOn(url, attempt = 1) {
  try {
    return await lighthouseOnce(url)
  } catch (error) {
    if (attempt >= 3 || !(error instanceof LighthouseRuntimeError)) throw error
    console.log(`${error.message}; running it again`)
    return lighthouseOn(url, attempt + 1)
  }
}

async function lighthouseOnce(url) {
  const executable = await chromiumPath()
  const port = await freePort()
  const profile = mkdtempSync(path.join(os.tmpdir(), 'bench-chromium-'))
  const flags = ['--headless=new', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, ...CHROMIUM_ARGS]
  const chromium = spawn(executable, [...flags, 'about:blank'], { stdio: 'ignore', detached: true })
  try {
    await waitForDevTools(port)
    const { lhr } = await lighthouse(url, { port, output: 'json', logLevel: 'error' })
    if (lhr.runtimeError) throw new LighthouseRuntimeError(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`)
    return lhr
  } finally {
    try {
      process.kill(-chromium.pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
    rmSync(profile, { recursive: true, force: true })
  }
}

async function waitForDevTools(port) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const ready = await fetch(`http://127.0.0.1:${port}/json/version`).then((r) => r.ok, () => false)
    if (ready) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`Chromium's DevTools did not open on port ${port}`)
}

function machine() {
  const cpus = os.cpus()
  return `Machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GB, ${os.type()} ${os.release()}, Node ${process.version}`
}

function kb(bytes) {
  return Number((bytes / 1024).toFixed(1))
}

function fail(error) {
  console.error(error instanceof Error ? error.stack : error)
  process.exit(1)
}
