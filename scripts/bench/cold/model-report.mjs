/**
 * The cold bench's second section, "A visit at 300 a day and at 3 million a month": the visit model
 * (./visit-model.mjs) fed with what the bench measured (scripts/bench/cold.mjs) and the figures of
 * ./cloudflare-figures.mjs. The site's lifetimes are read from what it did in the run: the edge's
 * from the page's Cloudflare-CDN-Cache-Control, the Cache API copy's from what the page cache
 * stored, KV's cacheTtl from its reads; CONTENT_TTL from wrangler.toml.
 */
import { everyPage, median } from '../shared.mjs'
import { ISOLATE_IDLE_S, KV_DEFAULT_CACHE_TTL_S, LATENCIES, PRICES } from './cloudflare-figures.mjs'
import { LEVEL_NAMES, unitsByKind } from './levels.mjs'
import {
  DAYS_PER_MONTH,
  LEVELS,
  levelShares,
  monthlyBill,
  quantile,
  timeToFirstByte,
} from './visit-model.mjs'

/** Content changes a month the bill assumes: one a working day and a few more. */
export const CHANGES_PER_MONTH = 30
/** The scheduled refresh's interval (src/content/refresh.ts SCHEDULE_INTERVAL_MS). */
const CRON_INTERVAL_S = 60

const TRAFFIC = [
  { name: '300 visits a day', visitsPerDay: 300 },
  { name: '3 million visits a month', visitsPerDay: 3_000_000 / DAYS_PER_MONTH },
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
  // Each payload is refreshed once per CONTENT_TTL rounded up to a run (src/content/refresh.ts).
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
 *   measured it (the startup step, scripts/bench/startup.mjs): added to the TTFB of (d), (e), (f)
 */
export function writeVisitModel(report, measured, contentTtlS, startupCpuMs) {
  const site = siteLifetimes(measured, contentTtlS)
  const pages = everyPage().length
  report.text(
    `The site's lifetimes in this run: the edge keeps a page fresh ${site.freshS} s and serves it stale ${site.staleS} s more (the page's Cloudflare-CDN-Cache-Control: "${site.header}"); the Cache API keeps it ${site.cacheApiS} s; KV's copy at a location lives ${site.kvCacheTtlS} s after a read (cacheTtl); payloads are refreshed every CONTENT_TTL, ${site.contentTtlS} s. Visits spread evenly over ${pages} pages at one location (Yerevan); an idle isolate is assumed to live ${ISOLATE_IDLE_S.seconds} s (Cloudflare publishes no figure: ${ISOLATE_IDLE_S.source}).`
  )

  report.table(
    Object.entries(LATENCIES).map(([name, figure]) => ({
      'round trip': name,
      ms: figure.ms,
      'documented by Cloudflare': figure.documented ? 'yes' : 'no: assumed',
      what: figure.note,
      source: figure.source,
    }))
  )

  const cpu = (level) => median(measured.levels[level].map((one) => one.cpuMs))
  /** @type {Record<string, { hot: number, cold: number, trips: number }>} */
  const ttfb = {}
  for (const level of LEVELS) {
    if (level === 'a' || level === 'b') {
      const ms = timeToFirstByte(
        { chain: [], cpuMs: 0 },
        { kvHot: true, latencies: LATENCIES, workerRuns: false }
      )
      ttfb[level] = { hot: ms, cold: ms, trips: 0 }
      continue
    }
    const chain = measured.levels[level].at(-1).chain
    // A new isolate evaluates the worker's modules first: (d), (e) and (f) start that way.
    const startup = level === 'c' ? 0 : (startupCpuMs ?? 0)
    const run = (kvHot) =>
      timeToFirstByte(
        { chain, cpuMs: cpu(level) + startup },
        { kvHot, latencies: LATENCIES, workerRuns: true }
      )
    ttfb[level] = { hot: run(true), cold: run(false), trips: chain.length }
  }

  const models = TRAFFIC.map((traffic) => {
    const shares = levelShares({
      visitsPerDay: traffic.visitsPerDay,
      pages,
      freshS: site.freshS,
      staleS: site.staleS,
      cacheApiS: site.cacheApiS,
      isolateIdleS: ISOLATE_IDLE_S.seconds,
      kvCacheTtlS: site.kvCacheTtlS,
    })
    const outcomes = LEVELS.flatMap((level) =>
      level === 'a' || level === 'b'
        ? [{ value: ttfb[level].hot, weight: shares[level] }]
        : [
            { value: ttfb[level].hot, weight: shares[level] * shares.kvHot },
            { value: ttfb[level].cold, weight: shares[level] * (1 - shares.kvHot) },
          ]
    )
    const units = monthlyUnits(
      measured,
      shares,
      traffic.visitsPerDay * DAYS_PER_MONTH,
      site.contentTtlS
    )
    return {
      traffic,
      shares,
      p50: quantile(outcomes, 0.5),
      p95: quantile(outcomes, 0.95),
      bill: monthlyBill(units, PRICES),
    }
  })

  const percent = (share) =>
    share === 0 ? '0' : share < 0.0001 ? '<0.01 %' : `${(share * 100).toFixed(2)} %`
  report.table(
    LEVELS.map((level) => ({
      level: LEVEL_NAMES[level],
      'round trips': ttfb[level].trips,
      'TTFB ms, KV hot': Math.round(ttfb[level].hot),
      'TTFB ms, KV cold': Math.round(ttfb[level].cold),
      ...Object.fromEntries(
        models.map((model) => [`share at ${model.traffic.name}`, percent(model.shares[level])])
      ),
    }))
  )
  report.text(
    `TTFB: the visitor's round trip, then the edge's answer, or the worker's request CPU measured above plus each step of its chain at the slowest call's latency. It leaves out the connection's set-up${startupCpuMs === undefined ? ", and, for a new isolate, its startup CPU (the startup step's figure, not measured here)" : `; a new isolate's startup CPU, ${startupCpuMs.toFixed(1)} ms, is in (d)–(f)`}. KV's copy is hot for ${models.map((model) => `${percent(model.shares.kvHot)} of renders at ${model.traffic.name}`).join(' and ')}. (f) has no steady-state share: KV keeps payloads 30 days and the scheduled refresh renews them, so only a new deployment's first visits miss to the CMS.`
  )
  report.table(
    models.map((model) => ({
      traffic: model.traffic.name,
      'p50 TTFB ms': Math.round(model.p50),
      'p95 TTFB ms': Math.round(model.p95),
    }))
  )

  const products = Object.keys(PRICES).filter((product) => product !== 'workersPlan')
  report.table(
    products.map((product) => ({
      product,
      ...Object.fromEntries(
        models.flatMap((model) => {
          const row = model.bill.rows.find((entry) => entry.product === product)
          return [
            [`${model.traffic.name}: units`, row ? Math.round(row.units).toLocaleString('en') : ''],
            [`${model.traffic.name}: USD`, row ? row.usd.toFixed(2) : ''],
          ]
        })
      ),
      'included a month': PRICES[product].included.toLocaleString('en'),
      'price per million': PRICES[product].perMillion,
      source: PRICES[product].source,
    }))
  )
  report.text(
    models
      .map(
        (model) =>
          `${model.traffic.name}: USD ${(PRICES.workersPlan.monthly + model.bill.total).toFixed(2)} a month (the Workers Paid plan's USD ${PRICES.workersPlan.monthly} and USD ${model.bill.total.toFixed(2)} over what it includes)`
      )
      .join('; ')
  )
  report.text(
    `Units: per visit, the level mix above times what each level's request did in this run (a stale copy's background render counted as (e)), plus the page view's two vitals beacons; ${((DAYS_PER_MONTH * 86_400) / CRON_INTERVAL_S).toLocaleString('en')} scheduled refreshes a month as measured (each payload due once per CONTENT_TTL); ${CHANGES_PER_MONTH} content changes a month as measured (assumed count). KV deletes and lists are counted with writes. Image transformations: every rendition the pages link, once a month (Cloudflare bills a unique transformation once a month however often it is served; a month with fewer visits may ask for fewer), plus those a content change made in this run. Queue operations: 3 per message (write, read, delete).`
  )
}
