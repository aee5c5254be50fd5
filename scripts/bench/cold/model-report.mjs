/**
 * The cold bench's second section, "A visit at 300 a day and at 3 million a month", computed, not
 * measured: visits simulated through an RFC 9111 shared cache (./edge-month.mjs) under each
 * assumption of how long the location keeps an idle page, each worker invocation costing what the
 * bench measured for its level (scripts/bench/cold.mjs), times the latencies and prices of
 * ./cloudflare-figures.mjs (./visit-model.mjs does the arithmetic). The site's lifetimes are read
 * from what it did in the run: the edge's from the page's Cloudflare-CDN-Cache-Control, the Cache
 * API copy's from what the page cache stored, KV's cacheTtl from its reads; CONTENT_TTL from
 * wrangler.toml. The section opens with its headline, which names the assumption it rests on most.
 */
import { SCHEDULE_INTERVAL_MS } from '../../../src/freshness/refresh-schedule.ts'
import { everyPage, median } from '../shared.mjs'
import { ISOLATE_IDLE_S, KV_DEFAULT_CACHE_TTL_S, LATENCIES, PRICES } from './cloudflare-figures.mjs'
import { simulateVisits } from './edge-month.mjs'
import { LEVEL_NAMES, stepsLeaving, unitsByKind } from './levels.mjs'
import { DAYS_PER_MONTH, LEVELS, monthlyBill, quantile, timeToFirstByte } from './visit-model.mjs'

/** Content changes a month the bill assumes: one a working day and a few more. */
export const CHANGES_PER_MONTH = 30
/** The scheduled refresh's interval. */
const CRON_INTERVAL_S = SCHEDULE_INTERVAL_MS / 1000

/** Deploys a month the model assumes: one a week. */
export const DEPLOYS_PER_MONTH = 4

/**
 * The two traffic levels, and how many days of each are simulated: the whole month at 300 a day;
 * one day at 3 million a month (100,000 visits, with a purge and a deploy in it), scaled to the month.
 */
const TRAFFIC = [
  { name: '300 visits a day', visitsPerDay: 300, days: DAYS_PER_MONTH },
  { name: '3 million visits a month', visitsPerDay: 3_000_000 / DAYS_PER_MONTH, days: 1 },
]

/** How long the location keeps a page nobody asks for (Cloudflare publishes no figure). */
export const IDLE_LIFETIMES = [
  { name: '30 min', seconds: 30 * 60 },
  { name: '2 h', seconds: 2 * 3600 },
  { name: '8 h', seconds: 8 * 3600 },
  { name: '1 day', seconds: 86_400 },
  { name: 'never', seconds: Infinity },
]

/**
 * The site's lifetimes, as the run showed them.
 * @param {import('../cold.mjs').Measured} measured
 */
export function siteLifetimes(measured, contentTtlS) {
  // (c) serves the complete page; the first render of a cold site is provisional, kept seconds.
  const header = measured.levels.c.at(-1).edgeHeader
  const seconds = (name) => Number(new RegExp(`${name}=(\\d+)`).exec(header)?.[1] ?? 0)
  const visits = Object.values(measured.levels).flat()
  const stored = visits
    .flatMap((one) => one.records)
    .filter((record) => record.kind === 'cache-write')
  const cacheApiS = Math.max(0, ...stored.map((record) => record.lifetime ?? 0))
  const ttls = measured.levels.e
    .at(-1)
    .records.filter((record) => record.kind === 'kv-read' && record.beforeResponse)
    .map((record) => record.cacheTtl ?? KV_DEFAULT_CACHE_TTL_S.seconds)
  return {
    header,
    freshS: seconds('max-age'),
    staleS: seconds('stale-while-revalidate'),
    cacheApiS,
    kvCacheTtlS: ttls.length ? Math.min(...ttls) : KV_DEFAULT_CACHE_TTL_S.seconds,
    contentTtlS,
  }
}

/**
 * What one month costs, in units of each priced product.
 * @param {import('../cold.mjs').Measured} measured
 * @param {Record<string, number>} shares
 * @param {number} visitsPerMonth
 * @param {number} contentTtlS
 */

/** The busy traffic level's part of the headline: one pair when both idle assumptions agree. */
function busyHeadline(busy) {
  const kept = [busy.kept.p50, busy.kept.p95].map(Math.round)
  const dropped = [busy.dropped.p50, busy.dropped.p95].map(Math.round)
  if (kept[0] === dropped[0] && kept[1] === dropped[1])
    return `${kept[0]} ms and ${kept[1]} ms under either assumption`
  return `${kept[0]} ms and ${kept[1]} ms if it keeps an idle page, ${dropped[0]} ms and ${dropped[1]} ms if it drops it after 30 minutes`
}

export function monthlyUnits(measured, shares, visitsPerMonth, contentTtlS) {
  const typical = (level) => measured.levels[level].at(-1)
  const cpu = (level) => median(measured.levels[level].map((one) => one.cpuMs))
  // The background render of a stale copy is counted as a render from KV, as at (e).
  const renderOf = { b: 'e', c: 'c', d: 'd', e: 'e', f: 'f' }
  const perVisit = { requests: 0, cpuMs: 0, units: /** @type {Record<string, number>} */ ({}) }
  const add = (units, weight) => {
    for (const [kind, count] of Object.entries(units))
      perVisit.units[kind] = (perVisit.units[kind] ?? 0) + count * weight
  }
  for (const [level, measuredLevel] of Object.entries(renderOf)) {
    const share = shares[level]
    perVisit.requests += share
    perVisit.cpuMs += share * cpu(measuredLevel)
    add(unitsByKind(typical(measuredLevel).records), share)
  }
  perVisit.requests += measured.beacons.invocations
  perVisit.cpuMs += measured.beacons.cpuMs
  add(unitsByKind(measured.beacons.records), 1)

  const runs = (DAYS_PER_MONTH * 86_400) / CRON_INTERVAL_S
  // Each payload is refreshed once per CONTENT_TTL rounded up to a run (src/freshness/refresh.ts).
  const dueShare = CRON_INTERVAL_S / (Math.ceil(contentTtlS / CRON_INTERVAL_S) * CRON_INTERVAL_S)
  const idle = unitsByKind(measured.cron.idle.records)
  const due = unitsByKind(measured.cron.due.records)
  const change = unitsByKind(measured.change.records)
  const kinds = new Set([
    ...Object.keys(perVisit.units),
    ...Object.keys(idle),
    ...Object.keys(due),
    ...Object.keys(change),
  ])
  /** @type {Record<string, number>} */
  const total = {}
  for (const kind of kinds) {
    const cron = runs * ((idle[kind] ?? 0) + dueShare * ((due[kind] ?? 0) - (idle[kind] ?? 0)))
    total[kind] =
      visitsPerMonth * (perVisit.units[kind] ?? 0) + cron + CHANGES_PER_MONTH * (change[kind] ?? 0)
  }
  const cronCpu =
    runs *
    (measured.cron.idle.cpuMs + dueShare * (measured.cron.due.cpuMs - measured.cron.idle.cpuMs))
  const imageTransforms = measured.change.records
    .filter((record) => record.kind === 'images' && record.target === 'transform')
    .reduce((sum, record) => sum + record.units, 0)
  return {
    workersRequests:
      visitsPerMonth * perVisit.requests +
      runs * measured.cron.idle.invocations +
      CHANGES_PER_MONTH * measured.change.invocations,
    workersCpuMs:
      visitsPerMonth * perVisit.cpuMs + cronCpu + CHANGES_PER_MONTH * measured.change.cpuMs,
    kvReads: total['kv-read'] ?? 0,
    kvWrites: (total['kv-write'] ?? 0) + (total['kv-delete'] ?? 0) + (total['kv-list'] ?? 0),
    // Each rendition the pages link, once a month, and what content changes transform.
    imagesTransformations: measured.renditions + CHANGES_PER_MONTH * imageTransforms,
    analyticsDataPoints: total.analytics ?? 0,
    queueOperations: (total.queue ?? 0) * PRICES.queueOperations.operationsPerMessage,
  }
}

/**
 * Writes the section.
 * @param {ReturnType<typeof import('../report.mjs').createReport>} report
 * @param {import('../cold.mjs').Measured} measured
 * @param {number} contentTtlS
 * @param {number} [startupCpuMs] a new isolate's startup CPU (module evaluation), when a step
 *   measured it (the startup step, scripts/bench/startup.mjs): added to a new isolate's TTFB
 */
export async function writeVisitModel(report, measured, contentTtlS, startupCpuMs) {
  const site = siteLifetimes(measured, contentTtlS)
  const pages = everyPage().length
  const cpu = (level) => median(measured.levels[level].map((one) => one.cpuMs))
  const chainOf = (level) => measured.levels[level].at(-1).chain
  const edgeMs = timeToFirstByte(
    { chain: [], cpuMs: 0 },
    { kvHot: true, latencies: LATENCIES, workerRuns: false }
  )
  /** What a visit waits for: the edge's answer, or the worker's measured chain and CPU. */
  const ttfbOf = ({ level, kvHot, newIsolate }) =>
    level === 'a' || level === 'b'
      ? edgeMs
      : timeToFirstByte(
          { chain: chainOf(level), cpuMs: cpu(level) + (newIsolate ? (startupCpuMs ?? 0) : 0) },
          { kvHot, latencies: LATENCIES, workerRuns: true }
        )

  const edgeHeaders = {
    'Cache-Control': 'public, max-age=0, must-revalidate',
    'Cloudflare-CDN-Cache-Control': site.header,
  }
  const rows = []
  for (const traffic of TRAFFIC) {
    for (const idle of IDLE_LIFETIMES) {
      const simulated = await simulateVisits({
        visitsPerDay: traffic.visitsPerDay,
        pages,
        days: traffic.days,
        idleS: idle.seconds,
        changes: Math.max(1, Math.round((CHANGES_PER_MONTH * traffic.days) / DAYS_PER_MONTH)),
        deploys: Math.max(1, Math.round((DEPLOYS_PER_MONTH * traffic.days) / DAYS_PER_MONTH)),
        isolateIdleS: ISOLATE_IDLE_S.seconds,
        kvCacheTtlS: site.kvCacheTtlS,
        edgeHeaders,
      })
      const weights = new Map()
      for (const outcome of simulated.outcomes) {
        const ms = ttfbOf(outcome)
        weights.set(ms, (weights.get(ms) ?? 0) + 1)
      }
      const outcomes = [...weights].map(([value, weight]) => ({ value, weight }))
      const share = (outcome) => (simulated.edge[outcome] ?? 0) / simulated.visits
      /** Worker invocations for pages per visit, by level (background revalidations included). */
      const shares = { a: 0, b: 0, ...simulated.runs }
      for (const level of Object.keys(simulated.runs)) shares[level] /= simulated.visits
      const visitsPerMonth = traffic.visitsPerDay * DAYS_PER_MONTH
      const units = monthlyUnits(measured, shares, visitsPerMonth, site.contentTtlS)
      const bill = monthlyBill(units, PRICES)
      rows.push({
        traffic,
        idle,
        fresh: share('fresh'),
        stale: share('stale') + share('stale-if-error'),
        miss: share('miss') + share('revalidated'),
        p50: quantile(outcomes, 0.5),
        p95: quantile(outcomes, 0.95),
        pageRuns:
          Object.values(simulated.runs).reduce((sum, runs) => sum + runs, 0) *
          (DAYS_PER_MONTH / traffic.days),
        units,
        bill,
      })
    }
  }

  const at = (traffic, idle) =>
    rows.find((row) => row.traffic === traffic && row.idle.name === idle)
  const low = TRAFFIC[0]
  const ends = [at(low, 'never'), at(low, '30 min')]
  const busy = {
    name: TRAFFIC[1].name,
    kept: at(TRAFFIC[1], 'never'),
    dropped: at(TRAFFIC[1], '30 min'),
  }
  report.text(
    `**Headline, resting on an assumption:** at ${low.name}, the first byte comes after ${Math.round(ends[0].p50)} ms (p50) and ${Math.round(ends[0].p95)} ms (p95) if the Cloudflare location keeps a page nobody asks for as long as the site allows (a week), but after ${Math.round(ends[1].p50)} ms and ${Math.round(ends[1].p95)} ms if it drops it after 30 minutes; at ${busy.name}, ${busyHeadline(busy)}. How long the location keeps an idle page is the assumption every figure here depends on most, and Cloudflare publishes no figure for it (it evicts rarely requested objects: https://developers.cloudflare.com/cache/concepts/retention-vs-freshness/). The table below gives each assumption; the month's ${CHANGES_PER_MONTH} content changes (each purging every page: assumed) and a deploy a week (an empty edge and Cache API each time) are in every row.`
  )
  const percent = (value) =>
    value === 0
      ? '0'
      : value < 0.0001
        ? '<0.01 %'
        : `${(value * 100).toFixed(value < 0.01 ? 2 : 1)} %`
  report.table(
    rows.map((row) => ({
      traffic: row.traffic.name,
      'an idle page kept (assumed)': row.idle.name,
      'edge fresh': percent(row.fresh),
      'edge stale, worker behind': percent(row.stale),
      'edge miss, worker first': percent(row.miss),
      'p50 TTFB ms': Math.round(row.p50),
      'p95 TTFB ms': Math.round(row.p95),
      'worker page requests a month': Math.round(row.pageRuns).toLocaleString('en'),
      'worker requests a month': Math.round(row.units.workersRequests).toLocaleString('en'),
      'KV reads a month': Math.round(row.units.kvReads).toLocaleString('en'),
      'bill USD a month': (PRICES.workersPlan.monthly + row.bill.total).toFixed(2),
    }))
  )
  report.text(
    `How: visits arrive as a Poisson process, spread evenly over ${pages} pages at one location (Yerevan), ${TRAFFIC.map((traffic) => `${traffic.name} simulated over ${traffic.days === DAYS_PER_MONTH ? 'the whole month' : `${traffic.days} day, scaled to the month`}`).join(', ')}, through the RFC 9111 emulation of the edge (scripts/lib/edge-cache.mjs, the one in front of the worker in the section above) that reads the page's Cloudflare-CDN-Cache-Control from this run ("${site.header}"). Each visit the edge could not answer, and each revalidation behind a stale answer, is a worker request at the level its state gives: (c) or (d) while the Cache API keeps its copy (dropped under the same idle assumption, and made stale by each purge), else (e) from KV; a new isolate after ${ISOLATE_IDLE_S.seconds} s without a visit (assumed: Cloudflare publishes no figure, ${ISOLATE_IDLE_S.source}) adds the startup CPU${startupCpuMs === undefined ? ' (not measured in this run)' : `, ${startupCpuMs.toFixed(1)} ms`}; KV's copy at the location is hot when a worker request read it within its cacheTtl (${site.kvCacheTtlS} s). The bill counts those requests at what each level's request did in this run, the page view's two vitals beacons, the scheduled refresh every minute and the content changes, as measured.`
  )

  report.table(
    Object.entries(LATENCIES).map(([name, figure]) => ({
      'round trip': name,
      ms: figure.ms,
      basis: figure.basis,
      what: figure.note,
      source: figure.source,
    }))
  )
  report.table(
    LEVELS.map((level) => {
      const worker = level !== 'a' && level !== 'b'
      const chain = worker ? chainOf(level) : []
      return {
        level: LEVEL_NAMES[level],
        'steps that can leave the location': stepsLeaving(chain),
        'worker CPU ms (measured)': worker ? cpu(level).toFixed(1) : '',
        'TTFB ms, KV hot, warm isolate': Math.round(
          ttfbOf({ level, kvHot: true, newIsolate: false })
        ),
        'TTFB ms, KV cold, new isolate': Math.round(
          ttfbOf({ level, kvHot: false, newIsolate: true })
        ),
      }
    })
  )
  report.text(
    `TTFB: the visitor's round trip, then the edge's answer, or the worker's request CPU (measured above) plus each step of its chain at the slowest call's latency (the table above: each documented, with its source, or assumed). It leaves out the connection's set-up. (f) has no share in the simulation: KV keeps payloads 30 days and the scheduled refresh renews them, so a deploy's first visits render from KV (e).`
  )
  const cost = at(TRAFFIC[1], 'never')
  const products = Object.keys(PRICES).filter((product) => product !== 'workersPlan')
  report.table(
    products.map((product) => {
      const row = cost.bill.rows.find((entry) => entry.product === product)
      return {
        product,
        [`units at ${cost.traffic.name}, nothing evicted`]: row
          ? Math.round(row.units).toLocaleString('en')
          : '',
        USD: row ? row.usd.toFixed(2) : '',
        'included a month': PRICES[product].included.toLocaleString('en'),
        'price per million': PRICES[product].perMillion,
        source: PRICES[product].source,
      }
    })
  )
  report.text(
    `Units: per visit, the worker requests the simulation gave times what each level's request did in this run, plus the page view's two vitals beacons; ${((DAYS_PER_MONTH * 86_400) / CRON_INTERVAL_S).toLocaleString('en')} scheduled refreshes a month as measured (each payload due once per CONTENT_TTL); ${CHANGES_PER_MONTH} content changes a month as measured (assumed count). KV deletes and lists are counted with writes. Image transformations: every rendition the pages link, once a month, plus those a content change made in this run. Queue operations: 3 per message (write, read, delete). The bill column above adds the Workers Paid plan's USD ${PRICES.workersPlan.monthly}.`
  )
}
