/**
 * The Server-Timing header of pages (decision 0030): what answered the page and how long the worker
 * took, for the browser's Navigation Timing (`serverTiming`), which client/telemetry sends with the
 * page's vitals.
 *
 * - `cache;desc=<hit|miss|uncached>`: what the page cache (src/freshness/) did,
 *   read from its X-Page-Cache header once it has answered; `uncached` when it kept out of the way
 *   (an error page, or PAGE_CACHE_TTL=0). On a hit it carries `dur`: the time to find the copy.
 * - `render;dur=<ms>`: when the worker rendered, the time until the page's headers were ready, its
 *   data loading included (the body streams after).
 *
 * Durations are whole milliseconds of the worker's clock, which advances only while the worker
 * waits for I/O (https://developers.cloudflare.com/workers/reference/security-model/#step-1-disallow-timers-and-multi-threading):
 * CPU time alone reads as 0. The header names nothing else: no host, binding, key or version.
 *
 * Registered outside the page cache, so a copy the page cache stores never carries it; a copy
 * Cloudflare's cache in front of the worker stores does, and replays it (decision 0030 says how the
 * browser tells).
 */
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../../env'
import { SERVER_TIMING } from '../../shared/telemetry'

const PAGE_CACHE_STATUSES = new Set(['hit', 'miss'])

export function serverTiming() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const method = c.req.method
    if (method !== 'GET' && method !== 'HEAD') return next()
    const started = performance.now()
    await next()
    const res = c.res
    if (res.status !== 304 && !/^text\/html\b/i.test(res.headers.get('Content-Type') ?? '')) return
    const ms = Math.round(performance.now() - started)
    const status = res.headers.get('X-Page-Cache') ?? ''
    const cache = PAGE_CACHE_STATUSES.has(status) ? status : 'uncached'
    const value =
      cache === 'hit'
        ? `${SERVER_TIMING.cache};desc=hit;dur=${ms}`
        : `${SERVER_TIMING.cache};desc=${cache}, ${SERVER_TIMING.render};dur=${ms}`
    try {
      res.headers.set('Server-Timing', value)
    } catch {
      // Headers passed on from the Cache API or a fetch are immutable: answer with a copy.
      c.res = new Response(res.body, res)
      c.res.headers.set('Server-Timing', value)
    }
  })
}
