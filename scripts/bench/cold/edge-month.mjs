/**
 * Visits through the edge, simulated: an RFC 9111 shared cache (scripts/lib/edge-cache.mjs, the
 * one the bench puts in front of the real worker) on a clock of its own, in front of a stand-in
 * for the worker that answers with the headers the real worker sent in the run and says which cold
 * level (c)–(f) each of its invocations met. So the edge's decisions (fresh, stale while it
 * revalidates, a miss) are the cache's, and what each worker invocation costs is what the bench
 * measured for its level.
 *
 * What is assumed, and said beside every figure that rests on it:
 * - visits arrive as a Poisson process, spread evenly over the pages, all at one location;
 * - the location drops a copy nobody asked for within `idleS` (Cloudflare evicts rarely requested
 *   objects and publishes no figure), the edge's copy and the Cache API's alike (both are the
 *   location's cache);
 * - each content change purges every page (a change to a payload every page reads: the upper
 *   bound), and the Cache API copies it made stale are rendered again from KV;
 * - each deploy starts with an empty edge and Cache API (the version is part of both keys) and new
 *   isolates; KV keeps the payloads;
 * - an isolate stays warm while a visit (its beacons reach the worker) came within `isolateIdleS`;
 *   KV's copy at the location is hot when a worker invocation read it within `kvCacheTtlS`.
 */
import { createEdgeCache } from '../../lib/edge-cache.mjs'
import { seededRandom } from '../../lib/seeded-random.mjs'

/**
 * @typedef {'c' | 'd' | 'e' | 'f'} WorkerLevel
 * @typedef {{ visitsPerDay: number, pages: number, days: number, idleS: number,
 *   changes: number, deploys: number, isolateIdleS: number, kvCacheTtlS: number,
 *   edgeHeaders: Record<string, string>, seed?: number }} MonthOptions
 * @typedef {{ visits: number, edge: Record<string, number>, runs: Record<WorkerLevel, number>,
 *   outcomes: { level: string, kvHot: boolean, newIsolate: boolean }[] }} MonthResult
 */

/**
 * Simulates `days` of visits; resolves to how the edge answered each visit, the worker's
 * invocations by level (background revalidations included) and what each visit waited for.
 * @param {MonthOptions} options
 * @returns {Promise<MonthResult>}
 */
export async function simulateVisits(options) {
  const random = seededRandom(options.seed ?? 51)
  const { pages, idleS } = options
  const endMs = options.days * 86_400_000
  let clock = 0
  let version = 0
  let lastVisit = -Infinity
  let lastKvRead = -Infinity
  /** The Cache API's copy of each page: when stored and last used, under which version. */
  const cacheApi = new Map()
  /** Pages this isolate holds in memory (recent-pages.ts), emptied with the isolate. */
  let isolatePages = new Set()
  /** @type {Record<WorkerLevel, number>} */
  const runs = { c: 0, d: 0, e: 0, f: 0 }
  /** The level of the worker invocation that answers the visit being simulated, if it runs first. */
  let answeredBy =
    /** @type {{ level: WorkerLevel, kvHot: boolean, newIsolate: boolean } | null} */ (null)
  let changeCount = 0

  const worker = async (/** @type {Request} */ request) => {
    const page = new URL(request.url).pathname
    const warm = clock - lastVisit < options.isolateIdleS * 1000
    if (!warm) isolatePages = new Set()
    const kvHot = clock - lastKvRead < options.kvCacheTtlS * 1000
    const copy = cacheApi.get(page)
    const kept =
      copy &&
      copy.version === version &&
      copy.change === changeCount &&
      clock - copy.usedAt < idleS * 1000
    /** @type {WorkerLevel} */
    const level = kept ? (warm && isolatePages.has(page) ? 'c' : 'd') : 'e'
    runs[level]++
    lastKvRead = clock
    cacheApi.set(page, { version, change: changeCount, usedAt: clock })
    isolatePages.add(page)
    answeredBy = { level, kvHot, newIsolate: !warm }
    const etag = `W/"${page}-${version}-${changeCount}"`
    const headers = { ...options.edgeHeaders, ETag: etag, 'Cache-Tag': `page:${page},content` }
    if (request.headers.get('If-None-Match') === etag)
      return new Response(null, { status: 304, headers })
    return new Response('<!doctype html><html></html>', { status: 200, headers })
  }
  const edge = createEdgeCache({ origin: worker, now: () => clock, version: () => String(version) })

  const perPageRate = options.visitsPerDay / 86_400_000 / pages
  const rate = perPageRate * pages
  const changeEvery = endMs / (options.changes + 1)
  const deployEvery = endMs / (options.deploys + 1)
  let nextChange = changeEvery
  let nextDeploy = deployEvery
  /** @type {Record<string, number>} */
  const counts = {}
  const outcomes = []
  let visits = 0
  const requests = Array.from(
    { length: pages },
    (_, index) =>
      new Request(`https://site.example/page-${index}`, { headers: { accept: 'text/html' } })
  )
  for (;;) {
    clock += -Math.log(1 - random()) / rate
    if (clock >= endMs) break
    while (nextChange <= clock) {
      edge.purgeTags(['content'])
      changeCount++
      nextChange += changeEvery
    }
    while (nextDeploy <= clock) {
      version++
      cacheApi.clear()
      isolatePages = new Set()
      lastVisit = -Infinity
      nextDeploy += deployEvery
    }
    if (idleS !== Infinity) edge.evictIdle(idleS * 1000)
    answeredBy = null
    const { outcome, background } = await edge.fetch(requests[Math.floor(random() * pages)])
    if (background) await background
    lastVisit = clock
    visits++
    counts[outcome] = (counts[outcome] ?? 0) + 1
    outcomes.push(
      outcome === 'fresh' || outcome === 'stale' || outcome === 'stale-if-error'
        ? { level: outcome === 'fresh' ? 'a' : 'b', kvHot: true, newIsolate: false }
        : {
            level: answeredBy?.level ?? 'e',
            kvHot: !!answeredBy?.kvHot,
            newIsolate: !!answeredBy?.newIsolate,
          }
    )
  }
  return { visits, edge: counts, runs, outcomes }
}
