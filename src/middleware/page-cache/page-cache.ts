/**
 * Full-page cache: a rendered page (the same for every visitor of its address) is stored in the
 * Cache API, fresh for PAGE_CACHE_TTL seconds, then served stale for STALE_SECONDS more while one
 * background render replaces it. A hit costs no backend call and no render; stored pages carry an
 * ETag and answer If-None-Match with 304. Only 200 HTML from GET (or HEAD) is stored; errors,
 * redirects and POSTs pass through untouched. Decisions and numbers: docs/decisions/0002-page-cache.md.
 *
 * Each isolate also keeps its recent pages in memory (recent-pages.ts), so most hits skip the
 * Cache API round trip. workerd forbids using one request's I/O objects in another, so requests
 * share only plain data (keys, page bytes); every answer is a new Response.
 */
import type { ExecutionContext } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { AppEnv, Bindings } from '../../env'
import { requestedBypass, withoutPayloadCache } from './bench-bypass'
import { recallPage, rememberPage } from './recent-pages'
import { answerFromStore, isCacheable, pageCacheKey, readStored, storePage, type StoredPage } from './stored-page'

export type PageCacheOptions = {
  /** The app, so that a stale page can be rendered again after the visitor has their answer. */
  app: { fetch: (request: Request, env: Bindings, ctx: ExecutionContext) => Response | Promise<Response> }
  /** The clock, in epoch milliseconds; injected by tests (fake timers do not age the Cache API). */
  now?: () => number
  /** The cache; caches.default unless a test gives another. */
  cache?: () => Cache
  /** The query parameters pages read: the only ones in the cache key. Default: none. */
  queryParams?: readonly string[]
  /**
   * The paths (without language prefix, `c.var.pageKey`) that are pages: any other request (robots.txt,
   * the sitemap, a scanner's guesses) passes by without a Cache API lookup. Default: every path.
   */
  pages?: readonly string[]
}

const DEFAULT_FRESH_SECONDS = 60
/** Seconds after freshness in which a stale page is still served while it is rendered again. */
export const STALE_SECONDS = 600

/** Keys with a background render under way in this isolate: one per key at a time. */
const revalidating = new Set<string>()
/** The background renders' own requests: they render and store, never read the cache. */
const revalidations = new WeakSet<Request>()

export function pageCache(options: PageCacheOptions) {
  const now = options.now ?? Date.now
  const openCache = options.cache ?? (() => caches.default)

  return createMiddleware<AppEnv>(async (c, next) => {
    const method = c.req.method
    const fresh = freshSeconds(c.env.PAGE_CACHE_TTL)
    if (fresh === 0 || (method !== 'GET' && method !== 'HEAD')) return next()
    if (options.pages && !options.pages.includes(c.var.pageKey)) return next()
    const cacheControl = `public, max-age=${fresh}, stale-while-revalidate=${STALE_SECONDS}`

    const bypass = requestedBypass(c)
    if (bypass) {
      if (bypass === 'all') c.env = withoutPayloadCache(c.env)
      await next()
      if (isCacheable(c.res)) c.header('Cache-Control', cacheControl)
      c.header('X-Page-Cache', 'bypass')
      return
    }

    const cache = openCache()
    const key = pageCacheKey(c.req.url, c.env, options.queryParams)
    const isRevalidation = revalidations.has(c.req.raw)
    if (!isRevalidation) {
      const page = await findPage(cache, key, fresh * 1000)
      const ageMs = page ? Math.max(0, now() - page.storedAt) : Infinity
      if (page && ageMs < (fresh + STALE_SECONDS) * 1000) {
        const isStale = ageMs >= fresh * 1000
        if (isStale) revalidate(c.req.url, key, c.env, c.executionCtx)
        return answerFromStore(page, c.req.raw, { ageMs, cacheControl, status: isStale ? 'stale' : 'hit' })
      }
    }

    // HEAD runs the GET route (Hono drops the body afterwards): it gets the same headers, and the
    // page it rendered is stored all the same.
    await next()
    if (!isCacheable(c.res)) return
    const store = (body: ReadableStream) =>
      storePage(cache, key, body, {
        headers: new Headers(c.res.headers),
        storedAt: now(),
        lifetimeSeconds: fresh + STALE_SECONDS,
      }).then(
        (page) => page && rememberPage(key, page),
        (error: unknown) => console.warn(`page cache: store ${key} failed: ${String(error)}`),
      )

    if (isRevalidation) {
      await store(c.res.body!)
      c.res = new Response(null, { status: 204 })
      return
    }
    // The visitor reads one branch as it is rendered; the other is stored once complete.
    const [visitor, copy] = c.res.body!.tee()
    c.executionCtx.waitUntil(store(copy))
    c.res = new Response(visitor, c.res)
    c.header('Cache-Control', cacheControl)
    // The platform compresses a rendered page for browsers that accept it.
    c.header('Vary', 'Accept-Encoding', { append: true })
    c.header('X-Page-Cache', 'miss')
  })

  /**
   * This isolate's copy of the page, unless it has gone stale here: then the Cache API's, which
   * another isolate may have renewed.
   */
  async function findPage(cache: Cache, key: string, freshMs: number): Promise<StoredPage | undefined> {
    const recent = recallPage(key)
    if (recent && now() - recent.storedAt < freshMs) return recent
    const shared = await readStored(cache, key).catch((error: unknown) => {
      console.warn(`page cache: read ${key} failed: ${String(error)}`)
      return null
    })
    if (!shared || (recent && recent.storedAt >= shared.storedAt)) return recent
    rememberPage(key, shared)
    return shared
  }

  /** Renders the page again in the background, through the whole app, and stores it. */
  function revalidate(url: string, key: string, env: Bindings, ctx: ExecutionContext) {
    if (revalidating.has(key)) return
    revalidating.add(key)
    const request = new Request(url, { headers: { Accept: 'text/html' } })
    revalidations.add(request)
    const run = (async () => {
      try {
        const response = await options.app.fetch(request, env, ctx)
        await response.body?.cancel()
      } catch (error) {
        console.warn(`page cache: background render of ${url} failed: ${String(error)}`)
      } finally {
        revalidating.delete(key)
      }
    })()
    ctx.waitUntil(run)
  }
}

/** PAGE_CACHE_TTL in seconds; '0' turns the page cache off, unset or unreadable means 60. */
function freshSeconds(value: string | undefined): number {
  const seconds = Number(value)
  return value !== undefined && value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0
    ? Math.floor(seconds)
    : DEFAULT_FRESH_SECONDS
}
