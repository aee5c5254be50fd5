/**
 * Step `cold` (`npm run bench:cold`): what the first visitor after a quiet night waits for, level by
 * level, and what a visit costs. Two sections:
 *
 * 1. "Cold paths": for each cold level, the chain of awaited I/O before the response's first byte,
 *    recorded by scripts/lib/io-chain.ts (the recorder the worker tests use): which KV reads,
 *    Cache API reads and backend calls ran one after another and which side by side, each step
 *    labelled local to the Cloudflare location (the Cache API, rate limiters, assets) or able to
 *    leave it (KV, the backend, queues), and both counted; the operations the invocation made in
 *    all (background work included); and the worker's CPU for the request beside a minimal
 *    worker's (Hono and React's renderToReadableStream of one paragraph,
 *    scripts/bench/minimal-worker/) measured in the same run.
 * 2. "A visit at 300 a day and at 3 million a month", computed: visits simulated through an
 *    RFC 9111 shared cache in front of a stand-in that answers with what the worker measured here
 *    (scripts/bench/cold/edge-month.mjs), under each assumption of how long the location keeps an
 *    idle page, with the month's purges and a deploy a week; those chains times the latencies of
 *    scripts/bench/cold/cloudflare-figures.mjs (each documented or assumed); p50 and p95 time to
 *    first byte, the worker's requests and the month's bill at list prices
 *    (scripts/bench/cold/model-report.mjs).
 *
 * How each level is made, on the site's worker behind recording bindings
 * (scripts/bench/cold/worker.ts: src/index.ts unchanged, under `wrangler dev` with the site's
 * wrangler.toml) and a Node content backend (scripts/lib/fake-backend.mjs):
 * - (a) and (b): an RFC 9111 shared cache (scripts/lib/edge-cache.mjs: Cloudflare-CDN-Cache-Control
 *   over Cache-Control, stale-while-revalidate, stale-if-error, purge by Cache-Tag, a key per
 *   version) in front of the running worker, on a clock of its own: a visit within the copy's
 *   freshness (a), then one past it (b), which the edge answers while the worker revalidates.
 * - (f): a fresh state folder (no KV, no Cache API), a new wrangler dev: a new isolate.
 * - (c): the next request to the same isolate, more than a second later (past the isolate's own
 *   1-second memos of payload stamps and texts).
 * - (d): a new wrangler dev on the same state: a new isolate, the Cache API still holding the page.
 *   KV's copy at a location is not emulated locally, so every KV read here can leave it.
 * - (e): a new wrangler dev after the Cache API's folder is removed, KV kept.
 * The recorder holds every call before the response and releases them in waves, the location's
 * own first, so the counts do not depend on the machine. A new isolate is a new workerd process:
 * module state, isolate memory and JIT all start empty; its startup (module evaluation) runs
 * before the measured request and is not in its CPU.
 *
 * Also measured, for the bill: a page view's two web-vitals beacons; one scheduled refresh with
 * nothing due and one with every payload due (the run's time set ahead, /cdn-cgi/local/scheduled);
 * one content change (an edit in the backend, then the signed publish hook naming it); the distinct
 * image renditions the pages link.
 *
 * Parameters (environment): BENCH_COLD_RUNS (3) rounds of the worker levels; BENCH_COLD_PAGE (/en).
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { parse as parseToml } from 'smol-toml'
import { HEARTBEAT_MEMO_MS } from '../../src/freshness/refresh-schedule.ts'
import { ROOT, startSite } from '../lib/local-site.mjs'
import { signedJsonHeaders } from '../lib/publish-signing.mjs'
import { startFakeBackend } from '../lib/fake-backend.mjs'
import { createEdgeCache } from '../lib/edge-cache.mjs'
import { openProfiler } from './cold/cpu-profile.mjs'
import { chainText, LEVEL_NAMES, stepKinds, unitsByKind } from './cold/levels.mjs'
import { writeVisitModel } from './cold/model-report.mjs'
import { measureStartup } from './startup.mjs'
import { BROWSER, everyPage, loadAverage, median } from './shared.mjs'

const RUNS = Number(process.env.BENCH_COLD_RUNS) || 3
const PAGE = process.env.BENCH_COLD_PAGE || '/en'
const STATE = path.join(ROOT, '.wrangler/bench-cold/state')
const LOG = path.join(ROOT, '.wrangler/bench-cold/wrangler.log')
const SETTLE_DEADLINE_MS = 60_000
/** The address every request names inside the worker, whatever port this start listens on. */
const SITE_ORIGIN = 'http://127.0.0.1'
/** Startup profiles of the site for the visit model: the least is kept (scripts/bench/startup.mjs). */
const STARTUP_RUNS = 3
/** Warm renders of the minimal worker per measurement: one takes a few samples. */
const WARM_RENDERS = 20

export const step = {
  name: 'cold',
  title: 'Cold paths: the I/O before the first byte, level by level',
  usesSite: false,
  /** @param {{ report: ReturnType<typeof import('./report.mjs').createReport> }} options */
  async run({ report }) {
    // The site's hashed client bundle and stylesheet, as `npm run bench` builds them for the others.
    execFileSync(process.execPath, ['scripts/build-client.mjs'], { cwd: ROOT, stdio: 'ignore' })
    const backend = await startFakeBackend()
    const secret = randomBytes(16).toString('hex')
    try {
      report.text(
        `\nPage ${PAGE}; ${RUNS} runs of each worker level, each new isolate a new wrangler dev; load average before: ${loadAverage()}`
      )
      const floor = await measureMinimalWorker()
      const measured = await measureLevels(backend, secret)
      printLevels(report, measured, floor)
      report.begin({
        name: 'visit-model',
        title: 'A visit at 300 a day and at 3 million a month',
        computed: true,
      })
      // A new isolate's startup CPU (d–f), as the startup step measures it: workerd's CPU time where
      // the machine reports it, else wrangler's profile.
      const { site: startup } = await measureStartup({ runs: STARTUP_RUNS })
      await writeVisitModel(
        report,
        measured,
        contentTtlSeconds(),
        startup.threadCpuMs ?? startup.cpuMs
      )
    } finally {
      await backend.close()
    }
  },
}

/**
 * The minimal worker's CPU for its first render in a new isolate and for a render in a warm one:
 * the floors of the new-isolate levels and of (c).
 */
async function measureMinimalWorker() {
  const first = []
  const warm = []
  for (let run = 0; run < RUNS; run++) {
    const site = await startSite({
      configs: ['scripts/bench/minimal-worker/wrangler.toml'],
      persistTo: path.join(ROOT, '.wrangler/bench-cold/minimal-state'),
      logFile: path.join(ROOT, '.wrangler/bench-cold/minimal.log'),
      production: true,
      readyPath: '/ready',
    })
    const profiler = await openProfiler(site.inspectorPort)
    try {
      const render = async () => {
        const response = await fetch(`${site.origin}/`, { headers: BROWSER })
        await response.arrayBuffer()
      }
      first.push(await profiler.measure(render))
      await sleep(1_100)
      const renders = await profiler.measure(async () => {
        for (let index = 0; index < WARM_RENDERS; index++) await render()
      })
      warm.push(renders / WARM_RENDERS)
    } finally {
      profiler.close()
      await site.stop()
    }
  }
  return { firstCpuMs: median(first), warmCpuMs: median(warm) }
}

/**
 * A visit's `steps` are the chain before the first byte as the recorder measured it, `leaving` how
 * many of them can leave the location (both from scripts/lib/io-chain.ts, in the worker), `chain`
 * the kinds of each step's calls (what the visit model reads).
 * @typedef {import('./cold/levels.mjs').IoRecord} IoRecord
 * @typedef {import('../lib/io-chain.ts').IoStep} IoStep
 * @typedef {{ status: number, edgeHeader: string, steps: IoStep[], leaving: number,
 *   chain: string[][], cpuMs: number, records: IoRecord[] }} Visit
 * @typedef {{ levels: Record<'c' | 'd' | 'e' | 'f', Visit[]>, beacons: { records: IoRecord[],
 *   cpuMs: number, invocations: number }, cron: { idle: Invocations, due: Invocations },
 *   change: Invocations, renditions: number, page: string, edge: object }} Measured
 * @typedef {{ records: IoRecord[], cpuMs: number, invocations: number }} Invocations
 */

/** @returns {Promise<Measured>} */
async function measureLevels(backend, secret) {
  /** @type {Measured['levels']} */
  const levels = { c: [], d: [], e: [], f: [] }
  const start = () =>
    startSite({
      script: 'scripts/bench/cold/worker.ts',
      configs: ['wrangler.toml'],
      vars: {
        API_HOST: backend.origin,
        PUBLISH_SECRET: secret,
        BENCH_ORIGIN: SITE_ORIGIN,
      },
      persistTo: STATE,
      logFile: LOG,
      production: true,
      readyPath: '/__bench/cold/count',
    })
  let extras
  let edge
  for (let run = 0; run < RUNS; run++) {
    const last = run === RUNS - 1
    console.log(`cold: run ${run + 1} of ${RUNS}`)
    rmSync(STATE, { recursive: true, force: true })
    await withSite(start, async (site, profiler) => {
      levels.f.push(await visit(site, profiler, `f-${run}`))
      await untilComplete(site)
      // In production the Cron Trigger's heartbeat is always recent (src/freshness/refresh.ts): write
      // it as a scheduled run does, then outlive what this isolate remembers of its absence.
      await runScheduled(site)
      await sleep(HEARTBEAT_MEMO_MS + 1000)
      levels.c.push(await visit(site, profiler, `c-${run}`))
    })
    await withSite(start, async (site, profiler) => {
      levels.d.push(await visit(site, profiler, `d-${run}`))
      await runScheduled(site)
    })
    rmSync(path.join(STATE, 'v3/cache'), { recursive: true, force: true })
    await withSite(start, async (site, profiler) => {
      levels.e.push(await visit(site, profiler, `e-${run}`))
      if (last) {
        edge = await measureEdge(site)
        extras = await measureVisitExtras(site, profiler, backend, secret)
      }
    })
  }
  return { levels, edge, ...extras, page: PAGE }
}

/**
 * Levels (a) and (b), through the RFC 9111 emulation of the edge in front of the running worker,
 * on a clock of its own: the edge's decision is the emulation's, what the worker does behind it is
 * measured. A first visit fills it from the worker (whose page cache holds the page); a
 * visit within the copy's freshness is (a), one past it (b), answered by the edge while it asks
 * the worker in the background. Each visit's worker invocations, KV reads and chain are what the
 * recorder saw while it ran.
 */
async function measureEdge(site) {
  let clock = Date.now()
  /** @type {{ id: string, status: number }[]} */
  let asked = []
  const edge = createEdgeCache({
    now: () => clock,
    version: () => 'bench-cold',
    origin: async (request) => {
      const id = `edge-${asked.length}-${clock}`
      const url = new URL(request.url)
      const headers = Object.fromEntries(request.headers)
      const response = await fetch(`${site.origin}${url.pathname}`, {
        headers: { ...headers, 'X-Bench-Trace': id },
      })
      asked.push({ id, status: response.status })
      return new Response(await response.arrayBuffer(), response)
    },
  })
  const request = () => new Request(`${SITE_ORIGIN}${PAGE}`, { headers: BROWSER })
  const through = async (name) => {
    asked = []
    const { response, outcome, background } = await edge.fetch(request())
    await response.arrayBuffer()
    await background
    for (const { id } of asked) await untilSettled(site, id)
    const traces = await Promise.all(
      asked.map(async ({ id }) => (await fetch(`${site.origin}/__bench/cold/trace/${id}`)).json())
    )
    const copy = edge.policyFor(request())
    return {
      name,
      outcome,
      invocations: traces.length,
      records: traces.flatMap((trace) => trace.records),
      chains: traces.map((trace) => trace.steps),
      statuses: asked.map(({ status }) => status),
      arrivedAgeS: copy ? Math.round(copy.age()) : undefined,
      freshS: copy ? Math.round(copy.maxAge() - copy.age()) : undefined,
    }
  }
  const filled = await through('fill')
  clock += 30_000
  const a = await through('a')
  clock += 60_000
  const b = await through('b')
  return { filled, a, b }
}

/** One scheduled run now, as the Cron Trigger makes every minute in production: it writes the heartbeat. */
async function runScheduled(site) {
  const response = await fetch(`${site.origin}/cdn-cgi/local/scheduled?time=${Date.now()}`)
  if (!response.ok) throw new Error(`the scheduled run answered ${response.status}`)
  await response.arrayBuffer()
}

/** Starts the site, opens the profiler, runs `work`, stops both. */
async function withSite(start, work) {
  const site = await start()
  const profiler = await openProfiler(site.inspectorPort)
  try {
    await work(site, profiler)
  } finally {
    profiler.close()
    await site.stop()
  }
}

/**
 * One page request: its answer, its recorded operations once its background work has settled, and
 * the CPU the isolate spent from the request to then.
 * @returns {Promise<Visit>}
 */
async function visit(site, profiler, id) {
  let response
  const cpuMs = await profiler.measure(async () => {
    response = await fetch(`${site.origin}${PAGE}`, {
      headers: { ...BROWSER, 'X-Bench-Trace': id },
    })
    await response.arrayBuffer()
    await untilSettled(site, id)
  })
  if (response.status !== 200) throw new Error(`${PAGE} answered ${response.status} at ${id}`)
  const trace = await (await fetch(`${site.origin}/__bench/cold/trace/${id}`)).json()
  return {
    status: response.status,
    edgeHeader: response.headers.get('Cloudflare-CDN-Cache-Control') ?? '',
    steps: trace.steps,
    leaving: trace.leaving,
    chain: stepKinds(trace.steps),
    cpuMs,
    records: trace.records,
  }
}

/**
 * Renders until the page cache holds a complete page. The first render of a cold site is
 * provisional (its image placeholders are still being computed: src/images/page-placeholders.ts)
 * and is kept only seconds; (c) and (d) are about the page a visitor meets afterwards.
 */
async function untilComplete(site) {
  const deadline = Date.now() + SETTLE_DEADLINE_MS
  for (let attempt = 0; ; attempt++) {
    const id = `complete-${Date.now()}-${attempt}`
    const response = await fetch(`${site.origin}${PAGE}`, {
      headers: { ...BROWSER, 'X-Bench-Trace': id },
    })
    await response.arrayBuffer()
    await untilSettled(site, id)
    if (!(response.headers.get('ETag') ?? '').includes('.provisional')) return
    if (Date.now() > deadline)
      throw new Error(`${PAGE} was still provisional after ${SETTLE_DEADLINE_MS} ms`)
    await sleep(2_000)
  }
}

/** Waits until the request sent as `id` and its background work (waitUntil) have settled. */
async function untilSettled(site, id) {
  const deadline = Date.now() + SETTLE_DEADLINE_MS
  for (;;) {
    const answer = await fetch(`${site.origin}/__bench/cold/settled/${encodeURIComponent(id)}`)
    if ((await answer.json()).settled) return
    if (Date.now() > deadline)
      throw new Error(`the background work of ${id} did not settle in ${SETTLE_DEADLINE_MS} ms`)
    await sleep(100)
  }
}

/** The invocations recorded while `work` ran (requests it sent, scheduled runs, queue consumers). */
async function invocationsDuring(site, profiler, work) {
  const count = async () => (await (await fetch(`${site.origin}/__bench/cold/count`)).json()).count
  const before = await count()
  const settled = async () =>
    (await fetch(`${site.origin}/__bench/cold/settled-since/${before}`)).json()
  const cpuMs = await profiler.measure(async () => {
    await work()
    const deadline = Date.now() + SETTLE_DEADLINE_MS
    for (;;) {
      const state = await settled()
      if (state.invocations > 0 && state.settled) break
      if (Date.now() > deadline) throw new Error('recorded invocations did not settle')
      await sleep(200)
    }
    // A queue consumer the work set off (the repurge) gets a moment to start and settle.
    await sleep(1_000)
    while (!(await settled()).settled && Date.now() < deadline) await sleep(200)
  })
  const traces = await (await fetch(`${site.origin}/__bench/cold/since/${before}`)).json()
  return {
    records: traces.flatMap((trace) => trace.records),
    cpuMs,
    invocations: traces.length,
  }
}

/** A page view's beacons, the scheduled refresh, and a content change, on the last site. */
async function measureVisitExtras(site, profiler, backend, secret) {
  const beaconHeaders = { 'Content-Type': 'text/plain', Origin: SITE_ORIGIN }
  // A page view's five metrics, in its two beacons (on hiding, and on leaving).
  const metric = (name, value) => ({ name, value, rating: 'good', id: `v5-${name}` })
  const beacons = await invocationsDuring(site, profiler, async () => {
    for (const metrics of [
      [metric('TTFB', 120), metric('FCP', 800), metric('LCP', 1200)],
      [metric('CLS', 0.01), metric('INP', 80)],
    ]) {
      const response = await fetch(`${site.origin}/api/vitals`, {
        method: 'POST',
        headers: beaconHeaders,
        body: JSON.stringify({ page: PAGE, metrics }),
      })
      if (response.status !== 204) throw new Error(`a vitals beacon answered ${response.status}`)
    }
  })

  const scheduled = (atMs) => async () => {
    const response = await fetch(`${site.origin}/cdn-cgi/local/scheduled?time=${atMs}`)
    if (!response.ok) throw new Error(`the scheduled run answered ${response.status}`)
  }
  const now = Date.now()
  // Brings every payload's entry to now, then measures a run a minute later and one a TTL later.
  await invocationsDuring(site, profiler, scheduled(now))
  const idle = await invocationsDuring(site, profiler, scheduled(now + 60_000))
  const due = await invocationsDuring(site, profiler, scheduled(now + contentTtlSeconds() * 1000))

  backend.edit('home', { servicesTitle: `Edited by the cold bench ${now}` })
  const body = JSON.stringify({ payloads: ['get-home-page'] })
  const change = await invocationsDuring(site, profiler, async () => {
    const response = await fetch(`${site.origin}/api/publish`, {
      method: 'POST',
      headers: signedJsonHeaders(secret, body),
      body,
    })
    if (response.status !== 200) throw new Error(`the publish hook answered ${response.status}`)
  })
  return { beacons, cron: { idle, due }, change, renditions: await renditionsLinked(site) }
}

/**
 * The distinct image renditions (`/_image` addresses, each a source at one size) the site's pages
 * link: Cloudflare bills each unique transformation once a month, however often it is served.
 */
async function renditionsLinked(site) {
  const found = new Set()
  for (const page of everyPage()) {
    const html = await (await fetch(`${site.origin}${page}`, { headers: BROWSER })).text()
    for (const [address] of html.matchAll(/\/_image\?[^"'\s,]+/g))
      found.add(address.replaceAll('&amp;', '&'))
  }
  return found.size
}

/** CONTENT_TTL of the production environment in wrangler.toml (seconds). */
export function contentTtlSeconds() {
  const config = parseToml(readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8'))
  const value = Number(config.env?.production?.vars?.CONTENT_TTL)
  if (!(value > 0)) throw new Error('wrangler.toml: no CONTENT_TTL in [env.production.vars]')
  return value
}

/** The first section: each level's chain, operations and CPU beside the floor. */
function printLevels(report, measured, floor) {
  const { edge } = measured
  const edgeRow = (level, visit, what) => {
    const units = unitsByKind(visit.records)
    const background = visit.chains.map(chainText).join('; ')
    return {
      level: LEVEL_NAMES[level],
      'steps that can leave the location': 0,
      'local steps': 0,
      'chain before the first byte': `none: the edge answers (${visit.outcome})${background ? `; ${what}: ${background}` : ''}`,
      'worker invocations': visit.invocations,
      'KV reads (all)': units['kv-read'] ?? 0,
      'KV writes': units['kv-write'] ?? 0,
      'backend calls': units.backend ?? 0,
      'CPU ms': '',
      'minimal worker CPU ms': '',
    }
  }
  const rows = [
    edgeRow('a', edge.a, 'the worker'),
    edgeRow('b', edge.b, `the worker, in the background, answering ${edge.b.statuses.join(', ')}`),
  ]
  for (const level of /** @type {const} */ (['c', 'd', 'e', 'f'])) {
    const visits = measured.levels[level]
    const typical = visits.at(-1)
    const units = unitsByKind(typical.records)
    const leaving = [...new Set(visits.map((one) => one.leaving))]
    const local = [...new Set(visits.map((one) => one.steps.length - one.leaving))]
    const minimal = level === 'c' ? floor.warmCpuMs : floor.firstCpuMs
    const cpu = median(visits.map((one) => one.cpuMs))
    rows.push({
      level: LEVEL_NAMES[level],
      'steps that can leave the location': leaving.join(' or '),
      'local steps': local.join(' or '),
      'chain before the first byte': chainText(typical.steps),
      'worker invocations': 1,
      'KV reads (all)': units['kv-read'] ?? 0,
      'KV writes': units['kv-write'] ?? 0,
      'backend calls': units.backend ?? 0,
      'CPU ms': `${cpu.toFixed(1)} (${(cpu / minimal).toFixed(1)}x)`,
      'minimal worker CPU ms': minimal.toFixed(1),
    })
  }
  report.table(rows)
  for (const level of /** @type {const} */ (['c', 'd', 'e', 'f'])) {
    const chains = [...new Set(measured.levels[level].map((one) => chainText(one.steps)))]
    if (chains.length > 1)
      report.text(`${LEVEL_NAMES[level]}: the runs' chains differed: ${chains.join('; ')}`)
  }
  report.text(
    `(a) and (b) through the RFC 9111 emulation of the edge in front of the worker (scripts/lib/edge-cache.mjs, on http-cache-semantics): what the edge answers is the emulation's decision, not Cloudflare's; what the worker did behind it is measured. The first visit stored the worker's answer ${edge.filled.freshS} s fresh (its age on arrival: ${edge.filled.arrivedAgeS} s); (a) came 30 s later, (b) 90 s later, past the copy's freshness: the edge answered it and asked the worker behind it, with the copy's ETag.`
  )
  report.text(
    `Steps: the chain of KV, Cache API, backend and other binding calls the worker waited for before it returned its response (scripts/lib/io-chain.ts holds each call and releases them in waves when the worker waits for nothing else, the location's own calls first): calls in one step ran side by side; · marks a step local to the location (the Cache API, rate limiters, assets), ↗ one that can leave it (KV, whose copy at the location may be cold, the backend, queues). A call still under way when the response was returned (a payload's store behind a full miss) was not awaited. The counts do not depend on the machine. "All" counts include background work (waitUntil). CPU: V8's sampled CPU of the isolate from the request until its background work settled (scripts/bench/cold/cpu-profile.mjs), median of ${RUNS}; the minimal worker's first render in a new isolate (beside d–f) or a render in a warm one (beside c), median of ${RUNS}. Startup CPU (module evaluation) is not in these figures: it is the startup step's.`
  )
  const line = (label, records) =>
    `${label}: ${
      Object.entries(unitsByKind(records))
        .map(([kind, count]) => `${count} ${kind}`)
        .join(', ') || 'no I/O'
    }`
  report.text(
    line(
      `A page view's two vitals beacons (${measured.beacons.invocations} invocations, ${measured.beacons.cpuMs.toFixed(1)} ms CPU)`,
      measured.beacons.records
    )
  )
  report.text(
    line(
      `A scheduled refresh with nothing due (${measured.cron.idle.cpuMs.toFixed(1)} ms CPU)`,
      measured.cron.idle.records
    )
  )
  report.text(
    line(
      `A scheduled refresh with every payload due (${measured.cron.due.cpuMs.toFixed(1)} ms CPU)`,
      measured.cron.due.records
    )
  )
  report.text(
    `Image renditions the ${everyPage().length} pages link (distinct /_image addresses): ${measured.renditions}`
  )
  report.text(
    line(
      `A content change: an edit of the home page's text, then the publish hook naming it (${measured.change.invocations} invocations, ${measured.change.cpuMs.toFixed(1)} ms CPU)`,
      measured.change.records
    )
  )
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
