/**
 * The visit model of the cold bench (scripts/bench/cold.mjs): which cold level a visit meets, what it
 * waits before its first byte, and what a month costs. Pure arithmetic on what the bench measured
 * and on ./cloudflare-figures.mjs; tests/tooling/visit-model.test.ts checks it against a simulation.
 *
 * Visits arrive as a Poisson process of `visitsPerDay`, spread evenly over `pages` pages, all at one
 * Cloudflare location. Per page, the edge copy is a renewal process: a render stores it (age 0); it
 * is fresh for `freshS`, then served stale for `staleS` while one background render renews it; a
 * visit after both finds none, and its render stores a new one. Visits while fresh renew nothing. So
 * a cycle holds on average λp·freshS fresh visits and exactly one visit that renews: stale with
 * probability 1 − e^(−λp·staleS), else it finds no copy. Without an edge copy, the Cache API copy
 * (stored by a render, kept `cacheApiS`) may still be there: never when it lives no longer than the
 * edge's (the site's pages: both live freshS + staleS), so (c) and (d) then need an eviction the
 * model does not know of; when it lives longer, the model takes it as renewed with the edge copy,
 * which overstates (c) and (d). The isolate is warm when another visit came within `isolateIdleS`
 * (every visit reaches the worker: its beacons); KV's copy at the location is hot when a render
 * there read it within the read's cacheTtl (kvHotShare). KV always holds the payloads
 * (the scheduled refresh keeps them; they stay 30 days), so a full miss to the CMS (f) happens only
 * on a new deployment's first visits: its steady-state share is 0. Purges and evictions before the
 * end of a lifetime are not modelled (Cloudflare documents no eviction figure).
 */

export const LEVELS = /** @type {const} */ (['a', 'b', 'c', 'd', 'e', 'f'])
/** @typedef {(typeof LEVELS)[number]} Level */

export const SECONDS_PER_DAY = 86_400
/** A billing month, as the model counts it. */
export const DAYS_PER_MONTH = 30

/**
 * The share of visits meeting each level, and how often KV's copy at the location is hot.
 * @param {{ visitsPerDay: number, pages: number, freshS: number, staleS: number, cacheApiS: number,
 *   isolateIdleS: number, kvCacheTtlS: number }} site
 * @returns {Record<Level, number> & { kvHot: number }}
 */
export function levelShares({
  visitsPerDay,
  pages,
  freshS,
  staleS,
  cacheApiS,
  isolateIdleS,
  kvCacheTtlS,
}) {
  const rate = visitsPerDay / SECONDS_PER_DAY
  const perPage = rate / pages
  const cycle = perPage * freshS + 1
  const a = (perPage * freshS) / cycle
  const b = -Math.expm1(-perPage * staleS) / cycle
  const none = Math.exp(-perPage * staleS) / cycle
  // The gap past freshness is exponential: the Cache API copy outlives the edge's by cacheApiS − freshS − staleS.
  const beyondEdge = cacheApiS - freshS - staleS
  const cacheHit = beyondEdge > 0 ? -Math.expm1(-perPage * beyondEdge) : 0
  // Warm: another page was visited within isolateIdleS (this page's own last visit was longer ago
  // than that whenever the edge had no copy, as long as isolateIdleS ≤ freshS + staleS).
  const warm = -Math.expm1(-(rate - perPage) * isolateIdleS)
  const kvHot = kvHotShare({ perPage, pages, freshS, kvCacheTtlS })
  return {
    a,
    b,
    c: none * cacheHit * warm,
    d: none * cacheHit * (1 - warm),
    e: none * (1 - cacheHit),
    f: 0,
    kvHot,
  }
}

/**
 * The share of renders at the location that find KV's copy hot: another render there read it
 * within `kvCacheTtlS` (the keys every page reads: navbar, contact). Each page's renders form a
 * renewal process: a render, `freshS` of fresh edge copy, then the next visit renders, after an
 * exponential wait; so the gap between two renders of a page is freshS + Exp(λp). Another page
 * rendered within the window unless its backward recurrence time exceeds it, which for a
 * stationary renewal process has probability ∫_K^∞ P(gap > x) dx / E[gap]; this page's own last
 * render was one whole gap ago.
 * @param {{ perPage: number, pages: number, freshS: number, kvCacheTtlS: number }} options
 */
export function kvHotShare({ perPage, pages, freshS, kvCacheTtlS: window }) {
  const meanGap = freshS + 1 / perPage
  const tail =
    window <= freshS
      ? freshS - window + 1 / perPage
      : Math.exp(-perPage * (window - freshS)) / perPage
  const otherQuiet = tail / meanGap
  const ownQuiet = window <= freshS ? 1 : Math.exp(-perPage * (window - freshS))
  return 1 - ownQuiet * otherQuiet ** (pages - 1)
}

/**
 * Milliseconds before the first byte, from the visitor: one round trip to the location, the edge's
 * answer or the worker's CPU, and the sequential chain of round trips, each step as long as the
 * slowest call in it.
 * @param {{ chain: string[][], cpuMs: number }} measured chain: the kinds of the calls at each depth
 * @param {{ kvHot: boolean, latencies: Record<string, { ms: number }>, workerRuns: boolean }} options
 */
export function timeToFirstByte({ chain, cpuMs }, { kvHot, latencies, workerRuns }) {
  const visitor = latencies.visitor.ms
  if (!workerRuns) return visitor + latencies.edgeCache.ms
  const steps = chain.map((kinds) =>
    Math.max(0, ...kinds.map((kind) => latencyOf(kind, kvHot, latencies)))
  )
  return visitor + cpuMs + steps.reduce((total, ms) => total + ms, 0)
}

/** @param {string} kind @param {boolean} kvHot @param {Record<string, { ms: number }>} latencies */
export function latencyOf(kind, kvHot, latencies) {
  if (kind === 'kv-read') return (kvHot ? latencies.kvHot : latencies.kvCold).ms
  if (kind === 'kv-write' || kind === 'kv-delete' || kind === 'kv-list') return latencies.kvWrite.ms
  if (kind.startsWith('cache-')) return latencies.cacheApi.ms
  if (kind === 'backend' || kind === 'fetch') return latencies.backend.ms
  return latencies.other.ms
}

/**
 * The q-quantile (0 < q ≤ 1) of a discrete distribution: the least value whose cumulative weight
 * reaches q of the total.
 * @param {{ value: number, weight: number }[]} outcomes
 * @param {number} q
 */
export function quantile(outcomes, q) {
  const sorted = outcomes.filter((outcome) => outcome.weight > 0).sort((x, y) => x.value - y.value)
  const total = sorted.reduce((sum, outcome) => sum + outcome.weight, 0)
  let cumulative = 0
  for (const outcome of sorted) {
    cumulative += outcome.weight
    if (cumulative >= q * total * (1 - 1e-12)) return outcome.value
  }
  return sorted.at(-1)?.value ?? NaN
}

/**
 * A month's bill: each product's units, what the plan includes, and the price of the rest.
 * @param {Record<string, number>} units by product name of PRICES (workersRequests, kvReads, ...)
 * @param {Record<string, object>} prices each with `included` and `perMillion` (PRICES)
 */
export function monthlyBill(units, prices) {
  const rows = Object.entries(units).map(([product, amount]) => {
    const price = prices[product]
    if (!price) throw new Error(`no price for ${product}`)
    const billable = Math.max(0, amount - price.included)
    return {
      product,
      units: amount,
      included: price.included,
      usd: (billable / 1e6) * price.perMillion,
    }
  })
  const total = rows.reduce((sum, row) => sum + row.usd, 0)
  return { rows, total }
}
