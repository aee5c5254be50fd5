/**
 * How `npm run bench` measures what the caches save: a request that carries the CACHE_BYPASS_TOKEN
 * var of the harness worker (./worker.ts) may skip the page cache ('page': rendered from cached
 * payloads) or both caches ('all': every payload from the backend). Without the var set, the
 * header is ignored. The site itself never sees the header: the harness hands it bindings under
 * which the page cache keeps out of the way (PAGE_CACHE_TTL '0') and, for 'all', payload keys of
 * the request's own, under which KV and the isolate's memory hold nothing yet, and marks the answer `bypass` in X-Page-Cache (its Server-Timing says
 * `uncached`, as the site says of every page it does not keep). docs/decisions/0002-page-cache.md
 * explains why a client's own `Cache-Control: no-cache` is not honoured instead.
 */
import type { Bindings } from '../../../src/env'

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
  return marked
}

/**
 * The bindings under which every payload key is new: payload keys name the backend's origin and
 * product, so the request gets an origin or a product of its own that reaches the same backend. An
 * origin ends in `/<scope>/..`, which the URL parser takes away again; the bundled service is
 * reached through a binding that gives each call the real product back. What is loaded is still
 * stored, as a miss stores it.
 */
function withoutPayloadCache<E extends Bindings>(env: E): E {
  const scope = `bypass-${crypto.randomUUID()}`
  if (env.API_HOST) return { ...env, API_HOST: `${env.API_HOST.replace(/\/+$/, '')}/${scope}/..` }
  const product = `${env.PRODUCT}-${scope}`
  const content = env.CONTENT
  const realProduct = (request: Request) => {
    const url = new URL(request.url)
    url.pathname = url.pathname.replace(
      `/api/${encodeURIComponent(product)}/`,
      `/api/${encodeURIComponent(env.PRODUCT)}/`
    )
    return new Request(url, request)
  }
  const scoped = {
    fetch: (input: RequestInfo | URL, init?: RequestInit) =>
      content.fetch(realProduct(new Request(input, init))),
    connect: content.connect.bind(content),
  } as Fetcher
  return { ...env, PRODUCT: product, CONTENT: scoped }
}

function equalSecrets(given: string, secret: string): boolean {
  const a = new TextEncoder().encode(given)
  const b = new TextEncoder().encode(secret)
  return a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b)
}
