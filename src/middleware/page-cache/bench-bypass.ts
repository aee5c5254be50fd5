/**
 * How `npm run bench` measures what the caches save: a request that carries the CACHE_BYPASS_TOKEN
 * secret may skip the page cache ('page': rendered from cached payloads) or both caches ('all':
 * every payload from the backend). Without the secret set (the default, and production unless
 * someone sets it) the header is ignored, so visitors cannot make the site render at will.
 * docs/decisions/0002-page-cache.md explains why a client's own `Cache-Control: no-cache` is not
 * honoured instead.
 */
import type { Context } from 'hono'
import type { AppEnv, Bindings } from '../../env'

/** What a bench request skips: `page` or `all`. */
export const BYPASS_HEADER = 'X-Cache-Bypass'
/** Must equal the CACHE_BYPASS_TOKEN secret. */
export const BYPASS_TOKEN_HEADER = 'X-Cache-Bypass-Token'

export type Bypass = 'page' | 'all'

/** The bypass a request asked for, when it proved it may. */
export function requestedBypass(c: Context<AppEnv>): Bypass | null {
  const mode = c.req.header(BYPASS_HEADER)
  if (mode !== 'page' && mode !== 'all') return null
  const secret = c.env.CACHE_BYPASS_TOKEN
  const given = c.req.header(BYPASS_TOKEN_HEADER)
  return secret && given && equalSecrets(given, secret) ? mode : null
}

/** The bindings with a payload cache that finds nothing (and still stores what is loaded). */
export function withoutPayloadCache(env: Bindings): Bindings {
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
