/**
 * An RFC 9111 shared cache in front of a worker, as Cloudflare's cache stands in front of the site
 * (docs/decisions/0027-edge-copies-outlive-a-quiet-night.md), built on `http-cache-semantics`:
 *
 * - it reads `Cloudflare-CDN-Cache-Control`, else `CDN-Cache-Control` (RFC 9213's targeted fields),
 *   else `Cache-Control`, and passes on all but the first, as Cloudflare documents
 *   (https://developers.cloudflare.com/cache/concepts/cdn-cache-control/), and none of its own state;
 * - a visitor's `If-None-Match` that matches a stored copy's `ETag` is answered 304 from the copy;
 * - a stale copy within `stale-while-revalidate` is answered at once while the worker is asked in
 *   the background (with the copy's validators); within `stale-if-error` it is answered when the
 *   worker fails (a 5xx or a thrown call);
 * - a 304 that matches the copy's validator renews it and updates its stored headers with the
 *   304's (RFC 9111, sections 3.2 and 4.3.4: a new `Cache-Control` or `ETag` is then obeyed and
 *   served); a 304 that matches none is not used, and the worker is asked again without validators;
 *   another answer replaces the copy;
 * - `purgeTags` drops every copy whose `Cache-Tag` names one of the tags, and an answer the worker
 *   was giving meanwhile (a revalidation's 304 or 200, or a miss's answer tagged so) is passed to
 *   the visitor but not kept: it may predate the purge;
 * - copies are kept under the worker's version (`version()`), so a deploy starts with an empty
 *   cache, as the site's keys do;
 * - `evictIdle` drops copies nobody asked for within a while: Cloudflare evicts rarely requested
 *   objects and publishes no figure, so the caller says what it assumes.
 *
 * The clock is the caller's (`now`), so a test or the bench can age copies without waiting. Used
 * by tests/worker (copies reach the edge fresh), scripts/bench/cold.mjs (levels (a) and (b)) and
 * the smoke's stand-in for Workers Cache (tests/support/fake-front-cache.mjs).
 */
import CachePolicy from 'http-cache-semantics'

const TARGETED = 'cloudflare-cdn-cache-control'
/** Statuses whose answers have no body (the Fetch standard's null body statuses). */
const NO_BODY = new Set([101, 103, 204, 205, 304])
/**
 * Fields a 304 does not update in the stored copy (RFC 9111, section 3.2): the hop-by-hop ones,
 * Content-Length, and those that describe the stored body's bytes, as http-cache-semantics keeps them.
 */
const NOT_UPDATED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'content-encoding',
  'content-range',
])

/** The copy's headers updated with a 304's (RFC 9111, section 3.2), as a new Headers. */
function updatedHeaders(/** @type {Headers} */ stored, /** @type {Headers} */ notModified) {
  const headers = new Headers(stored)
  for (const [name, value] of notModified)
    if (!NOT_UPDATED.has(name.toLowerCase())) headers.set(name, value)
  return headers
}

/** The tags a response's Cache-Tag names. */
function tagsOf(/** @type {Headers} */ headers) {
  return (headers.get('Cache-Tag') ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean)
}

/** The caching policy the edge obeys: the most specific field the response has. */
function edgeCacheControl(/** @type {Headers} */ headers) {
  return headers.get(TARGETED) ?? headers.get('CDN-Cache-Control') ?? headers.get('Cache-Control')
}

/** Whether the visitor already holds the copy tagged `etag`: its If-None-Match names it (weak comparison). */
function matchesIfNoneMatch(/** @type {Request} */ request, /** @type {string | null} */ etag) {
  const asked = request.headers.get('If-None-Match')
  if (!asked || !etag || !['GET', 'HEAD'].includes(request.method)) return false
  const opaque = (/** @type {string} */ tag) => tag.trim().replace(/^W\//, '')
  return asked.trim() === '*' || asked.split(',').some((tag) => opaque(tag) === opaque(etag))
}

/**
 * @param {{ origin: (request: Request) => Promise<Response>, now?: () => number,
 *   version?: () => string }} options
 */
export function createEdgeCache({ origin, now = Date.now, version = () => '' }) {
  class EdgePolicy extends CachePolicy {
    now() {
      return now()
    }
  }
  /** @type {Map<string, { policy: CachePolicy, body: Uint8Array, headers: Headers, usedAt: number }>} */
  const copies = new Map()

  const keyOf = (request) => `${version()} ${request.method} ${request.url}`

  /** The request as http-cache-semantics reads it. */
  function policyRequest(request) {
    const url = new URL(request.url)
    const headers = Object.fromEntries(request.headers)
    return {
      url: url.pathname + url.search,
      method: request.method,
      headers: { ...headers, host: url.host },
    }
  }

  /** The response as the edge reads it: the field it obeys in place of Cache-Control. */
  function policyResponse(response) {
    const headers = Object.fromEntries(response.headers)
    const cacheControl = edgeCacheControl(response.headers)
    if (cacheControl !== null) headers['cache-control'] = cacheControl
    return { status: response.status, headers }
  }

  /**
   * The stored copy as the visitor who sent `request` gets it: its own headers, the copy's age, no
   * edge-only field; a 304 without a body when the visitor already holds it.
   */
  function answer(copy, request) {
    const headers = new Headers(copy.headers)
    headers.delete(TARGETED)
    headers.set('Age', String(Math.floor(copy.policy.age())))
    if (matchesIfNoneMatch(request, headers.get('ETag')))
      return new Response(null, { status: 304, headers })
    const status = copy.policy.status()
    return new Response(NO_BODY.has(status) ? null : copy.body, { status, headers })
  }

  /** Whether the copy is within its stale-if-error window (RFC 5861, section 4). */
  function mayServeOnError(copy) {
    const cacheControl = edgeCacheControl(copy.headers) ?? ''
    const seconds = Number(/stale-if-error=(\d+)/i.exec(cacheControl)?.[1] ?? 0)
    return copy.policy.maxAge() + seconds > copy.policy.age()
  }

  /** The tags purged during each call to the worker under way: what it answers may predate them. */
  const underWay = new Set()

  /** Asks the worker; resolves to its answer and the tags purged while it was asked. */
  async function ask(request) {
    /** @type {Set<string>} */
    const purged = new Set()
    underWay.add(purged)
    try {
      return { response: await origin(request), purged }
    } finally {
      underWay.delete(purged)
    }
  }

  /**
   * Keeps `response` when the edge may, unless `mayKeep` says no (a purge came while the worker
   * answered); resolves to what the visitor gets.
   */
  async function keep(key, request, response, mayKeep = true) {
    const body = new Uint8Array(await response.arrayBuffer())
    const headers = new Headers(response.headers)
    const policy = new EdgePolicy(policyRequest(request), policyResponse(response), {
      shared: true,
    })
    const stored = new Headers(headers)
    headers.delete(TARGETED)
    if (mayKeep && policy.storable() && policy.timeToLive() > 0)
      copies.set(key, { policy, body, headers: stored, usedAt: now() })
    return new Response(NO_BODY.has(response.status) ? null : body, {
      status: response.status,
      headers,
    })
  }

  /** A miss: the worker's answer, kept unless a purge of one of its tags came meanwhile. */
  async function fill(key, request) {
    const { response, purged } = await ask(request)
    return keep(key, request, response, !tagsOf(response.headers).some((tag) => purged.has(tag)))
  }

  /**
   * Asks the worker to revalidate `copy` (RFC 9111, section 4.3): a 304 that matches the copy's
   * validator renews it with the 304's header fields, another answer replaces it. A copy purged (or
   * replaced) while the worker was asked stays gone.
   */
  async function revalidate(key, request, copy, conditional) {
    const asked = new Request(request.url, {
      method: request.method,
      headers: { ...Object.fromEntries(request.headers), ...conditional },
    })
    const { response, purged } = await ask(asked)
    const mayKeep =
      copies.get(key) === copy && !tagsOf(response.headers).some((tag) => purged.has(tag))
    if (response.status !== 304) return keep(key, request, response, mayKeep)
    const headers = updatedHeaders(copy.headers, response.headers)
    const { policy, matches } = copy.policy.revalidatedPolicy(
      policyRequest(asked),
      policyResponse({ status: 304, headers })
    )
    // A 304 for another representation cannot update this one (section 4.3.4): ask for the page.
    if (!matches) {
      if (copies.get(key) === copy) copies.delete(key)
      return fill(key, request)
    }
    const renewed = { ...copy, policy, headers, usedAt: now() }
    if (mayKeep) copies.set(key, renewed)
    return answer(renewed, request)
  }

  return {
    /**
     * One visit: `outcome` says how the edge answered it ('fresh', 'stale' while revalidating in
     * `background`, 'stale-if-error', 'revalidated' (the worker was asked first), 'miss').
     * @param {Request} request
     */
    async fetch(request) {
      const key = keyOf(request)
      const copy = copies.get(key)
      const evaluated = copy?.policy.evaluateRequest(policyRequest(request))
      if (copy && evaluated?.response) {
        copy.usedAt = now()
        if (!evaluated.revalidation) return { response: answer(copy, request), outcome: 'fresh' }
        if (!evaluated.revalidation.synchronous) {
          const background = revalidate(key, request, copy, evaluated.revalidation.headers).then(
            (response) => response.arrayBuffer(),
            () => undefined
          )
          return { response: answer(copy, request), outcome: 'stale', background }
        }
      }
      let response
      try {
        response = copy
          ? await revalidate(
              key,
              request,
              copy,
              copy.policy.revalidationHeaders(policyRequest(request))
            )
          : await fill(key, request)
      } catch (error) {
        if (copy && mayServeOnError(copy))
          return { response: answer(copy, request), outcome: 'stale-if-error' }
        throw error
      }
      if (response.status >= 500 && copy && mayServeOnError(copy)) {
        return { response: answer(copy, request), outcome: 'stale-if-error' }
      }
      return { response, outcome: copy ? 'revalidated' : 'miss' }
    },

    /** Drops every copy tagged with one of `tags` (Cache-Tag, comma-separated); resolves to how many. */
    purgeTags(tags) {
      for (const purged of underWay) for (const tag of tags) purged.add(tag)
      let purged = 0
      for (const [key, copy] of copies) {
        const tagged = tagsOf(copy.headers)
        if (tags.some((tag) => tagged.includes(tag))) {
          copies.delete(key)
          purged++
        }
      }
      return purged
    },

    /** Drops every copy nobody asked for within `idleMs`. */
    evictIdle(idleMs) {
      for (const [key, copy] of copies) if (now() - copy.usedAt >= idleMs) copies.delete(key)
    },

    /** The stored copy's policy for `request`, if any: what a test asks of it (fresh, lifetime). */
    policyFor(request) {
      return copies.get(keyOf(request))?.policy
    },

    get size() {
      return copies.size
    },
  }
}
