/**
 * Pages' caching headers, and the in-worker page cache behind them.
 *
 * Every page (GET or HEAD of a page path: the navbar's pages and the projects', 200 HTML) gets `Cache-Control` for browsers (revalidate
 * every time) and `Cloudflare-CDN-Cache-Control` for the edge (fresh for PAGE_CACHE_TTL, then
 * stale for days while it revalidates; ./cache-headers.ts), a weak `ETag` made
 * of the payload hashes the page was rendered from, `Cache-Tag` naming the page and those payloads,
 * and `Vary: Accept-Encoding`. A matching If-None-Match is answered 304. In production Workers
 * Cache stores pages by these headers and the refresh purges them by tag (purge.ts). A 404 or a
 * redirect gets the same two headers and its own Cache-Tag, so that no purge misses it.
 *
 * The in-worker layer (Cache API, plus each isolate's recent pages in memory) is the page cache
 * where Workers Cache is absent (`wrangler dev`, tests) and a second chance behind it. A stored page
 * is served only while every payload it was rendered from still has the same hash in KV (the
 * payload hashes key, read beside the Cache API: one round trip), so it never
 * outlives a content change; and not once a payload has aged past CONTENT_TTL where requests do the
 * refreshing (no scheduled refresh), so that the render that follows starts the refresh.
 * Decisions and numbers: docs/decisions/0002-page-cache.md, 0004-content-freshness.md,
 * 0027-edge-copies-outlive-a-quiet-night.md.
 */
import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { payloadsReadBy } from './content-for-request'
import { contentTtlSeconds } from './payload-cache'
import { payloadHashesKey, readPayloadHashes, type PayloadHashes } from './payload-hashes'
import { currentStamp } from './payload-store'
import { scheduledRefreshIsRunning } from './refresh'
import type { AppEnv } from '../env'
import { pageCacheHeaders, STALE_SECONDS, type PageCacheHeaders } from './cache-headers'
import { recallPage, rememberPage } from './recent-pages'
import {
  answerFromStore,
  isCacheable,
  matchesEtag,
  pageCacheKey,
  pageEtag,
  readStored,
  storePage,
  type PagePayload,
  type StoredPage,
} from './stored-page'

export type PageCacheOptions = {
  /** The clock, in epoch milliseconds; injected by tests (fake timers do not age the Cache API). */
  now?: () => number
  /** The cache; caches.default unless a test gives another. */
  cache?: () => Cache
  /**
   * The query the request's page is rendered by (`?project=1`, or ''), resolved before the lookup:
   * the only query in the cache key (./stored-page.ts), so any other is the plain page. Default: ''.
   */
  pageQuery?: (c: Context<AppEnv>) => string | Promise<string>
  /**
   * Whether a path (without language prefix, `c.var.pageKey`) may be a page: any other request
   * (robots.txt, the sitemap, a scanner's guesses) passes by without a Cache API lookup. Default:
   * every path.
   */
  isPage?: (pageKey: string) => boolean
}

const DEFAULT_FRESH_SECONDS = 60
/** How long an isolate trusts the payload hash it last saw before asking KV again. */
const STAMP_MEMO_MS = 1_000
/**
 * Seconds a provisional page (rendered while some of its image placeholders were still being
 * computed, `c.var.provisional`) may be served from a cache: the render after it has them.
 */
export const PROVISIONAL_SECONDS = 10

export function pageCache(options: PageCacheOptions = {}) {
  const now = options.now ?? Date.now
  const openCache = options.cache ?? (() => caches.default)

  return createMiddleware<AppEnv>(async (c, next) => {
    const method = c.req.method
    if (method !== 'GET' && method !== 'HEAD') return next()
    const fresh = freshSeconds(c.env.PAGE_CACHE_TTL)
    const cacheHeaders = fresh > 0 ? pageCacheHeaders(fresh) : null
    if (options.isPage && !options.isPage(c.var.pageKey)) {
      await next()
      if (cacheHeaders) markKeptAnswer(c, cacheHeaders)
      return
    }
    const cache = fresh > 0 ? openCache() : null
    // Started before the page's query is resolved (a project's lookup reads a payload), so that
    // both leave the location in one trip.
    const checks = cache && startChecks(c)
    const key = pageCacheKey(c.req.url, c.env, await options.pageQuery?.(c))
    if (cache && checks) {
      const page = await findValidPage(c, cache, key, checks)
      if (page)
        return answerFromStore(page, c.req.raw, { cacheHeaders: cacheHeaders!, status: 'hit' })
    }

    // HEAD runs the GET route (Hono drops the body afterwards): it gets the same headers, and the
    // page it rendered is stored all the same.
    await next()
    if (!isCacheable(c.res)) {
      if (cacheHeaders) markKeptAnswer(c, cacheHeaders)
      return
    }
    const payloads = payloadsOf(c)
    const provisional = c.get('provisional') === true
    // A provisional page has an ETag of its own, so that revalidating it fetches the complete one.
    const etag = provisional
      ? provisionalEtag(await pageEtag(key, payloads))
      : await pageEtag(key, payloads)
    c.header('ETag', etag)
    c.header('Cache-Tag', cacheTags(new URL(c.req.url).pathname, payloads))
    if (cacheHeaders) {
      for (const [name, value] of Object.entries(
        provisional ? pageCacheHeaders(fresh, PROVISIONAL_SECONDS) : cacheHeaders
      ))
        c.header(name, value)
    }
    // The platform compresses a rendered page for browsers that accept it.
    c.header('Vary', 'Accept-Encoding', { append: true })
    if (cache) c.header('X-Page-Cache', 'miss')

    if (matchesEtag(c.req.header('If-None-Match') ?? null, etag)) {
      await c.res.body?.cancel()
      const headers = new Headers(c.res.headers)
      for (const name of ['Content-Length', 'Content-Type', 'Transfer-Encoding'])
        headers.delete(name)
      c.res = new Response(null, { status: 304, headers })
      return
    }
    if (!cache || !payloads.length) return
    // The visitor reads one branch as it is rendered; the other is stored once complete.
    const [visitor, copy] = c.res.body!.tee()
    const headers = new Headers(c.res.headers)
    c.res = new Response(visitor, c.res)
    c.executionCtx.waitUntil(
      storePage(cache, key, copy, {
        headers,
        storedAt: now(),
        lifetimeSeconds: provisional ? PROVISIONAL_SECONDS : fresh + STALE_SECONDS,
        payloads,
        expiresAt: provisional ? now() + PROVISIONAL_SECONDS * 1000 : undefined,
      }).then(
        (page) => page && rememberPage(key, page),
        (error: unknown) => console.warn(`page cache: store ${key} failed: ${String(error)}`)
      )
    )
  })

  /** Starts the reads a stored page is checked against: the payload hashes and the heartbeat. */
  function startChecks(c: Context<AppEnv>): PageChecks {
    const kv = c.env.CONTENT_CACHE
    const hashes = readPayloadHashes(kv, payloadHashesKey(c.env), now).catch(
      (error: unknown): undefined => {
        console.warn(`page cache: payload hashes not read: ${String(error)}`)
        return undefined
      }
    )
    c.set('payloadHashes', hashes)
    return { hashes, refreshed: scheduledRefreshIsRunning(kv, now) }
  }

  /**
   * This isolate's copy of the page, else the Cache API's, provided every payload it was rendered
   * from is unchanged (and, where requests refresh payloads, none has aged past CONTENT_TTL).
   * The payload hashes, the heartbeat and the Cache API are read side by side: one round trip
   * that can leave the location before the first byte where the scheduled refresh runs. A miss
   * does not wait for the hashes; the route reads them (`c.var.payloadHashes`) to load the
   * payloads KV does not have from the backend as soon as they say so.
   */
  async function findValidPage(
    c: Context<AppEnv>,
    cache: Cache,
    key: string,
    { hashes, refreshed }: PageChecks
  ): Promise<StoredPage | null> {
    const recent = recallPage(key)
    // The Cache API is the location's own: on a miss the render starts at once, its payload reads
    // beside the hashes' (one trip that can leave the location, not two).
    const page =
      recent ??
      (await readStored(cache, key).catch((error: unknown) => {
        console.warn(`page cache: read ${key} failed: ${String(error)}`)
        return null
      }))
    if (!page || !(await isCurrent(c, page, await hashes, await refreshed))) return null
    if (!recent) rememberPage(key, page)
    return page
  }

  async function isCurrent(
    c: Context<AppEnv>,
    page: StoredPage,
    hashes: PayloadHashes | null | undefined,
    refreshed: boolean
  ): Promise<boolean> {
    if (page.expiresAt !== undefined && now() >= page.expiresAt) return false
    // The scheduled refresh keeps payloads fresh: a page is current while the hashes list its payloads'.
    if (refreshed)
      return !!hashes && page.payloads.every(({ key, hash }) => hashes.get(key) === hash)
    // Requests refresh payloads (no scheduled refresh, as under wrangler dev): each entry's own
    // stamp, so that a payload aged past CONTENT_TTL is rendered, which starts its refresh.
    const stamps = await Promise.all(
      page.payloads.map(({ key }) => currentStamp(c.env.CONTENT_CACHE, key, STAMP_MEMO_MS, now))
    )
    if (stamps.some((stamp, index) => stamp?.hash !== page.payloads[index]!.hash)) return false
    const ttlMs = contentTtlSeconds(c.env) * 1000
    return stamps.every((stamp) => now() - stamp!.storedAt < ttlMs)
  }
}

/** What a stored page is checked against: the payload hashes, and whether the scheduled refresh runs. */
type PageChecks = {
  hashes: Promise<PayloadHashes | null | undefined>
  refreshed: Promise<boolean>
}

/** The payloads this request's answer was built from, as stored with a page. */
function payloadsOf(c: Context<AppEnv>): PagePayload[] {
  return [...payloadsReadBy(c)].map(([tag, read]) => ({ key: read.key, tag, hash: read.hash }))
}

/** Answers the edge may keep besides pages: a page that does not exist, and the redirects of old addresses. */
const KEPT_STATUSES = new Set([301, 302, 307, 308, 404])

/**
 * Gives a 404 or a redirect for a GET its own lifetime and tags, as a page has: without them
 * Workers Cache would keep it by heuristic and no purge would reach it
 * (docs/decisions/0027-edge-copies-outlive-a-quiet-night.md). Its tags are its address and the
 * payloads that decided it (a project's address: the enterprises payload). An answer that says
 * how to cache it already keeps its own header.
 */
function markKeptAnswer(c: Context<AppEnv>, cacheHeaders: PageCacheHeaders) {
  if (!KEPT_STATUSES.has(c.res.status) || c.res.headers.has('Cache-Control')) return
  if (c.res.headers.has('Set-Cookie')) return
  for (const [name, value] of Object.entries(cacheHeaders)) c.header(name, value)
  c.header('Cache-Tag', cacheTags(new URL(c.req.url).pathname, payloadsOf(c)))
}

/** The page's own tag and its payloads' tags, for Cache-Tag (comma-separated). */
function cacheTags(pathname: string, payloads: readonly PagePayload[]): string {
  const page = `page:${pathname.replace(/[\s,]/g, '_')}`
  return [page, ...new Set(payloads.map(({ tag }) => tag))].join(',')
}

/** `W/"abc"` -> `W/"abc.provisional"`. */
function provisionalEtag(etag: string): string {
  return etag.replace(/"$/, '.provisional"')
}

/** PAGE_CACHE_TTL in seconds; '0' turns page caching off, unset or unreadable means 60. */
function freshSeconds(value: string | undefined): number {
  const seconds = Number(value)
  return value !== undefined && value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0
    ? Math.floor(seconds)
    : DEFAULT_FRESH_SECONDS
}
