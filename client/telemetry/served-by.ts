/**
 * How the page was served, from its navigation's Server-Timing (Navigation Timing's `serverTiming`):
 * the worker's `cache` and `render` metrics (src/middleware/server-timing), and Cloudflare's own
 * cache status where Cloudflare adds it (decision 0030).
 *
 * A copy stored by Cloudflare's cache in front of the worker replays the headers of the answer
 * that made it, so the worker's metrics alone would report that answer. The page counts as served
 * by the edge when Cloudflare's `cfCacheStatus` (or `cdn-cache`) says HIT, STALE, UPDATING or
 * REVALIDATED, or when the render it reports took longer than this visitor's whole wait for the
 * first byte: a render that cannot have been this request's. Otherwise (no Cloudflare metric and
 * a fast render) an edge copy reports as the answer it stored; decision 0030 names that limit.
 */
import {
  CACHE_LEVELS,
  SERVER_TIMING,
  type CacheLevel,
  type ServedBy,
} from '../../src/shared/telemetry'

const CLOUDFLARE_CACHE_STATUS = new Set(['cfcachestatus', 'cdn-cache'])
const EDGE_HITS = new Set(['HIT', 'STALE', 'UPDATING', 'REVALIDATED'])

export function servedBy(): ServedBy {
  const navigation = performance.getEntriesByType('navigation')[0] as
    PerformanceNavigationTiming | undefined
  const timings = navigation?.serverTiming ?? []
  const named = (name: string) => timings.find((timing) => timing.name === name)
  const cloudflare = timings.find((timing) =>
    CLOUDFLARE_CACHE_STATUS.has(timing.name.toLowerCase())
  )
  const cache = named(SERVER_TIMING.cache)
  if (cloudflare && EDGE_HITS.has(unquote(cloudflare.description).toUpperCase()))
    return { cache: 'edge' }
  if (!navigation || !cache) return { cache: 'unknown' }
  const render = named(SERVER_TIMING.render)
  const wait = navigation.responseStart - navigation.requestStart
  // One millisecond of slack: the worker rounds its durations to whole milliseconds.
  if (render && navigation.responseStart > 0 && render.duration > wait + 1) return { cache: 'edge' }
  const level = (CACHE_LEVELS as readonly string[]).includes(cache.description)
    ? (cache.description as CacheLevel)
    : 'unknown'
  const ms = (render ?? cache).duration
  return level === 'unknown' ? { cache: level } : { cache: level, ms: Math.max(0, ms) }
}

function unquote(text: string): string {
  return text.replace(/^"|"$/g, '')
}
