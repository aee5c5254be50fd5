/**
 * The arithmetic of the cold bench's visit model (./model-report.mjs): what a visit waits for
 * before its first byte (`timeToFirstByte`), percentiles of a mixture (`quantile`), and a month's
 * bill (`monthlyBill`). The share of visits at each level comes from visits simulated through an
 * RFC 9111 cache (./edge-month.mjs); `levelShares` is its closed form for the case with no eviction,
 * purge or deploy, against which tests/tooling/edge-cache.test.ts checks the simulation
 * (tests/tooling/visit-model.test.ts checks the closed form against a Poisson simulation of its own).
 *
 * The closed form: visits arrive as a Poisson process of `visitsPerDay`, spread evenly over `pages`
 * pages, all at one Cloudflare location. Per page, the edge copy is a renewal process: a render
 * stores it (age 0); it is fresh for `freshS`, then served stale for `staleS` while one background
 * render renews it; a visit after both finds none, and its render stores a new one. Visits while
 * fresh renew nothing. So a cycle holds on average λp·freshS fresh visits and exactly one visit that
 * renews: stale with probability 1 − e^(−λp·staleS), else it finds no copy. The isolate is warm when
 * another visit came within `isolateIdleS`; KV's copy at the location is hot when a render there
 * read it within the read's cacheTtl (kvHotShare).
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
