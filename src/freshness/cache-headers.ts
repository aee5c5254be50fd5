/**
 * The two halves of a page's caching policy (docs/decisions/0017-browser-and-edge-cache-headers.md):
 *
 * - browsers (and any cache this site does not purge) read `Cache-Control`: `max-age=0,
 *   must-revalidate`, so every navigation asks the worker, which answers 304 while the page's
 *   payloads are unchanged (the ETag); no browser shows a copy older than the edge's;
 * - Cloudflare's cache in front of the worker reads `Cloudflare-CDN-Cache-Control`, which takes
 *   precedence over `Cache-Control` there and is never passed on downstream: fresh for
 *   PAGE_CACHE_TTL, then served stale while it revalidates, and when the worker fails, for
 *   STALE_SECONDS (days: a page outlives a quiet night); purged by tag on every content change
 *   (docs/decisions/0027-edge-copies-outlive-a-quiet-night.md).
 */

/** Every page's Cache-Control: browsers revalidate each navigation and never show a stale copy. */
export const BROWSER_CACHE_CONTROL = 'public, max-age=0, must-revalidate'
/** The header only Cloudflare's cache reads (RFC 9213's targeted field for Cloudflare). */
export const EDGE_CACHE_CONTROL = 'Cloudflare-CDN-Cache-Control'

/**
 * Seconds after freshness in which the edge may serve a page while it revalidates it, or while the
 * worker answers with an error: a week, so that the first visitor after a quiet night or weekend
 * gets the edge's copy at once. Freshness comes from the purges, not from this lifetime.
 */
export const STALE_SECONDS = 7 * 24 * 60 * 60

export type PageCacheHeaders = { 'Cache-Control': string; 'Cloudflare-CDN-Cache-Control': string }

/**
 * A page's caching headers: fresh at the edge for `freshSeconds`, then stale-while-revalidate and
 * stale-if-error; a
 * provisional page (`provisionalSeconds` given) only for those seconds and never served stale.
 */
export function pageCacheHeaders(
  freshSeconds: number,
  provisionalSeconds?: number
): PageCacheHeaders {
  const edge =
    provisionalSeconds === undefined
      ? `public, max-age=${freshSeconds}, stale-while-revalidate=${STALE_SECONDS}, stale-if-error=${STALE_SECONDS}`
      : `public, max-age=${provisionalSeconds}`
  return { 'Cache-Control': BROWSER_CACHE_CONTROL, [EDGE_CACHE_CONTROL]: edge } as PageCacheHeaders
}
