/**
 * How `npm run bench` measures what the caches save: a request that carries the CACHE_BYPASS_TOKEN
 * var of the harness worker (./worker.ts) may skip the page cache ('page': rendered from cached
 * payloads) or both caches ('all': every payload from the backend). Without the var set, the
 * header is ignored. The site itself never sees the header: the harness hands it bindings under
 * which the page cache keeps out of the way (PAGE_CACHE_TTL '0') and, for 'all', a payload cache
 * that finds nothing, and marks the answer `bypass` (X-Page-Cache, and Server-Timing's cache level,
 * src/middleware/server-timing). docs/decisions/0002-page-cache.md explains why a client's own
 * `Cache-Control: no-cache` is not honoured instead.
 */
import type { Bindings } from '../../../src/env'
import { SERVER_TIMING } from '../../../src/shared/telemetry'

/** What a bench request skips: `page` or `all`. */
export const BYPASS_HEADER = 'X-Cache-Bypass'
/** Must equal the harness worker's CACHE_BYPASS_TOKEN var. */
export const BYPASS_TOKEN_HEADER = 'X-Cache-Bypass-Token'

export type Bypass = 'page' | 'all'

/** The bypass a request asked for, when it proved it may. */
export function requestedBypass(request: Request, secret: string | undefined): Bypass | null {
  const mode = request.headers.get(BYPASS_HEADER)
  if (mode !== 'page' && mode !== 'all') return null
  const given = request.headers.get(BYPASS_TOKEN_HEADER)
  return secret && given && equalSecrets(given, secret) ? mode : null
}

/** The bindings a bypassed request is served with: no page cache, and for 'all' no payload cache. */
export function bypassedEnv<E extends Bindings>(env: E, bypass: Bypass): E {
  const pageless = { ...env, PAGE_CACHE_TTL: '0' }
  return bypass === 'all' ? withoutPayloadCache(pageless) : pageless
}

/** A page rendered for a bypassed request says so, as a miss or a hit would. */
export function markBypassed(response: Response): Response {
  if (response.status !== 200 || !/^text\/html\b/i.test(response.headers.get('Content-Type') ?? ''))
    return response
  const marked = new Response(response.body, response)
  marked.headers.set('X-Page-Cache', 'bypass')
  const timing = marked.headers.get('Server-Timing')
  if (timing)
    marked.headers.set(
      'Server-Timing',
      timing.replace(`${SERVER_TIMING.cache};desc=uncached`, `${SERVER_TIMING.cache};desc=bypass`)
    )
  return marked
}

/** The bindings with a payload cache that finds nothing (and still stores what is loaded). */
function withoutPayloadCache<E extends Bindings>(env: E): E {
  const kv = env.CONTENT_CACHE
  const missing = new Proxy(kv, {
    get(target, property) {
      if (property === 'get') return async () => null
      const value: unknown = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { ...env, CONTENT_CACHE: missing }
}

function equalSecrets(given: string, secret: string): boolean {
  const a = new TextEncoder().encode(given)
  const b = new TextEncoder().encode(secret)
  return a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b)
}
