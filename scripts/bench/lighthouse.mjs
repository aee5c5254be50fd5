/**
 * Step `lighthouse` (`npm run bench:lighthouse`): Lighthouse (mobile, its defaults) on the home
 * page in the browser tests' Chromium, BENCH_LIGHTHOUSE_RUNS times (default 3), reporting the
 * median run by performance score, as Lighthouse's documentation advises for a score that varies
 * from run to run. It runs first, on a machine the load steps have not heated up, against a warm
 * page cache. BENCH_LIGHTHOUSE_PATH=/ru/contact-us points it at another page, or at several,
 * comma-separated (/,/ru/about), with a summary of their median runs. The image steps run
 * Lighthouse too (runLighthouse).
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import lighthouse from 'lighthouse'
import { CHROMIUM_ARGS, chromiumPath, chromiumVersion } from '../lib/chromium-path.mjs'
import { startHeaderDroppingProxy } from '../lib/header-dropping-proxy.mjs'
import { freePort, ROOT } from '../lib/local-site.mjs'
import { BROWSER, loadAverage, pathList } from './shared.mjs'

const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS) || 3
/** The pages Lighthouse loads: the home page, which the issue's target names, unless set. */
const LIGHTHOUSE_PATHS = pathList(process.env.BENCH_LIGHTHOUSE_PATH, '/')

/** Lighthouse gave up on a run (lhr.runtimeError): worth running again (lighthouseOn). */
class LighthouseRuntimeError extends Error {}

/** Lighthouse's loopback proxies, one per site origin (proxyFor). */
const proxies = new Map()

export const step = {
  name: 'lighthouse',
  title: 'Lighthouse, mobile, bundled content',
  usesSite: true,
  async run({ site, report }) {
    const medians = []
    for (const pagePath of LIGHTHOUSE_PATHS) {
      const page = new URL(pagePath, site.origin).href
      for (let warm = 0; warm < 3; warm++)
        await (await fetch(page, { headers: BROWSER })).arrayBuffer()
      medians.push({ page: pagePath, ...(await runLighthouse(page)) })
    }
    console.log('\nLighthouse, the median run of each page:')
    report.table(medians)
  },
}

/** Lighthouse on one page (lighthouseFigures); the median run's scores and timings. */
export async function runLighthouse(url) {
  return (await lighthouseFigures(url)).median
}

/**
 * Lighthouse on one page, after a run that is not counted (it fills the image route's cache);
 * returns every run's scores and timings and the median run's. This Chromium
 * (@sparticuz/chromium 147) cancels any navigation whose response carries a Referrer-Policy header
 * while Lighthouse's trace is recording (net::ERR_ABORTED, FAILED_DOCUMENT_REQUEST; the same page
 * loads fine untraced), so Lighthouse reaches the site through a loopback proxy that drops that
 * one header, which no Lighthouse audit reads.
 */
export async function lighthouseFigures(url) {
  const proxy = await proxyFor(new URL(url).origin)
  const target = new URL(new URL(url).pathname, proxy.origin).href
  const loadBefore = loadAverage()
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
  const ranked = [...runs].sort(
    (a, b) =>
      score(a, 'performance') - score(b, 'performance') ||
      audit(b, 'largest-contentful-paint') - audit(a, 'largest-contentful-paint')
  )
  const median = ranked[Math.floor((ranked.length - 1) / 2)]
  const executable = await chromiumPath()
  console.log(
    `\nLighthouse ${median.lighthouseVersion}, ${median.configSettings.formFactor}, ${chromiumVersion(executable)}: ${url}, ${runs.length} run(s); load average before: ${loadBefore}\n`
  )
  console.table(
    runs.map((lhr) => ({
      run: runs.indexOf(lhr) + 1,
      ...row(lhr),
      median: lhr === median ? '<-' : '',
    }))
  )
  console.log('Median run:')
  console.table([row(median)])
  const failing = Object.values(median.categories).flatMap((category) =>
    category.auditRefs
      .filter((ref) => ref.weight > 0 && (median.audits[ref.id]?.score ?? 1) < 1)
      .map(
        (ref) =>
          `${category.id}: ${ref.id} (${median.audits[ref.id].displayValue ?? median.audits[ref.id].score})`
      )
  )
  if (failing.length)
    console.log(`Audits below full marks in the median run:\n  ${failing.join('\n  ')}`)
  const slug = new URL(url).pathname.replace(/\W+/g, '-').replace(/^-|-$/g, '')
  const report = path.join(ROOT, `.wrangler/bench/lighthouse${slug ? `-${slug}` : ''}.json`)
  mkdirSync(path.dirname(report), { recursive: true })
  writeFileSync(report, JSON.stringify(median))
  console.log(`Full report of the median run: ${path.relative(ROOT, report)}`)
  return { median: row(median), runs: runs.map(row) }
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
  const flags = [
    '--headless=new',
    `--remote-debugging-port=${port}`,
    `--user-data-dir=${profile}`,
    ...CHROMIUM_ARGS,
  ]
  const chromium = spawn(executable, [...flags, 'about:blank'], { stdio: 'ignore', detached: true })
  try {
    await waitForDevTools(port)
    const { lhr } = await lighthouse(url, { port, output: 'json', logLevel: 'error' })
    if (lhr.runtimeError)
      throw new LighthouseRuntimeError(
        `Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`
      )
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
    // Ready once DevTools names its browser socket: Lighthouse connects to that address, and a
    // Chromium still starting answers /json/version without it on a busy machine.
    const ready = await fetch(`http://127.0.0.1:${port}/json/version`).then(
      async (r) => r.ok && typeof (await r.json()).webSocketDebuggerUrl === 'string',
      () => false
    )
    if (ready) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`Chromium's DevTools did not open on port ${port}`)
}
