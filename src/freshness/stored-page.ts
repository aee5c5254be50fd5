/**
 * Rendered pages in the Cache API: the key they are stored under, what is stored with them (the
 * payloads they were rendered from, by KV key and content hash), and how a stored page answers a
 * visitor (200, or 304 to a matching If-None-Match). A page is
 * compressed once when it is stored or first read in an isolate, not once per visit: a visitor
 * whose browser accepts gzip gets those bytes as they are.
 */
import type { Bindings } from '../env'
import type { PageCacheHeaders } from './cache-headers'
import { clientManifest } from '../generated/client-manifest'
import { lazy } from '../shared/lazy'

/** Epoch milliseconds at which the stored page was rendered; kept in the cache, never sent. */
export const STORED_AT = 'X-Stored-At'
/** The payloads a stored page was rendered from, as JSON; kept in the cache, never sent. */
const PAYLOADS = 'X-Payloads'
/** Epoch milliseconds after which a provisional page is no longer served; kept in the cache, never sent. */
const EXPIRES_AT = 'X-Expires-At'
const INTERNAL = /^(x-stored-at|x-expires-at|x-payloads|cf-cache-status|transfer-encoding)$/i
/** Headers from which a cache downstream would count a copy's age (RFC 9111, section 4.2.3). */
const AGEING = ['Age', 'Date', 'Expires']

/** What the page cache did for a response, in the X-Page-Cache header. */
export type PageCacheStatus = 'hit' | 'miss'

/** A payload a page was rendered from: its KV key, Cache-Tag and content hash. */
export type PagePayload = { key: string; tag: string; hash: string }

/**
 * Stands in for the deployment id where the version metadata binding is missing: the bundle's hash,
 * computed then, not at startup (a deployed worker always has the id).
 */
const bundleVersion = lazy(() => fnv1a(JSON.stringify(clientManifest)))

/**
 * The cache key of a page: its address with only the query the page is rendered by (`query`, such
 * as `?project=1`, resolved by the caller: any other query is the plain page's key), under the
 * deployed version (so a deploy starts with an empty page cache) and the content source (so a
 * worker pointed at another backend never answers with pages rendered from this one's content).
 */
export function pageCacheKey(url: string, env: Bindings, query = ''): string {
  const { origin, pathname } = new URL(url)
  const version = env.CF_VERSION_METADATA?.id || bundleVersion()
  const source = encodeURIComponent(env.API_HOST || 'bundled')
  return `${origin}/__page-cache/${version}/${source}${pathname}${query}`
}

/** A 200 HTML page that says nothing against being shared. */
export function isCacheable(response: Response): boolean {
  const cacheControl = response.headers.get('Cache-Control') ?? ''
  return (
    response.status === 200 &&
    response.body !== null &&
    /^text\/html\b/i.test(response.headers.get('Content-Type') ?? '') &&
    !response.headers.has('Set-Cookie') &&
    !/\b(no-store|no-cache|private)\b/i.test(cacheControl)
  )
}

/** A stored page as plain data, which requests may share (a Response may not be). */
export type StoredPage = {
  bytes: Uint8Array
  /** The same bytes, gzip-compressed. */
  gzip: Uint8Array
  /** The response headers, without STORED_AT. */
  headers: [string, string][]
  /** Epoch milliseconds at which it was rendered. */
  storedAt: number
  /** The payloads it was rendered from: it may be served while each still has this hash. */
  payloads: PagePayload[]
  /** Set on a provisional page (rendered before its image placeholders were ready): served until then only. */
  expiresAt?: number
}

type StoreOptions = {
  headers: Headers
  storedAt: number
  lifetimeSeconds: number
  payloads: PagePayload[]
  expiresAt?: number
}

/**
 * Reads the whole page, then stores it with its ETag. A body that breaks off or does not end the
 * document (a render that failed mid-stream) is not stored. Resolves to the page, or null.
 */
export async function storePage(
  cache: Cache,
  key: string,
  body: ReadableStream,
  options: StoreOptions
): Promise<StoredPage | null> {
  const bytes = new Uint8Array(await new Response(body).arrayBuffer())
  const tail = new TextDecoder().decode(bytes.subarray(-32)).trimEnd().toLowerCase()
  if (!tail.endsWith('</html>')) return null
  const headers = new Headers(options.headers)
  // Transfer-Encoding belongs to one connection (RFC 9110, section 6.1): the renderer streamed the
  // page chunked, but a stored page has a length, which its answers send as Content-Length.
  for (const name of ['Age', 'X-Page-Cache', 'Content-Length', 'Transfer-Encoding'])
    headers.delete(name)
  // The Cache API drops the copy after this long, whatever its payloads.
  headers.set('Cache-Control', `public, max-age=${options.lifetimeSeconds}`)
  const page: StoredPage = {
    bytes,
    gzip: await gzipOf(bytes),
    headers: [...headers],
    storedAt: options.storedAt,
    payloads: options.payloads,
    expiresAt: options.expiresAt,
  }
  headers.set(STORED_AT, String(options.storedAt))
  if (options.expiresAt !== undefined) headers.set(EXPIRES_AT, String(options.expiresAt))
  headers.set(PAYLOADS, JSON.stringify(options.payloads))
  await cache.put(key, new Response(bytes, { status: 200, headers }))
  return page
}

/** The page stored under `key` in the Cache API, if any; one without a readable time counts as ancient. */
export async function readStored(cache: Cache, key: string): Promise<StoredPage | null> {
  const response = await cache.match(key)
  if (!response) return null
  const storedAt = Number(response.headers.get(STORED_AT) ?? NaN)
  const expiresAt = response.headers.has(EXPIRES_AT)
    ? Number(response.headers.get(EXPIRES_AT)) || 0
    : undefined
  const payloads = parsePayloads(response.headers.get(PAYLOADS))
  const headers = [...response.headers].filter(([name]) => !INTERNAL.test(name))
  const bytes = new Uint8Array(await response.arrayBuffer())
  // A copy that does not say what it was rendered from cannot be validated: it counts as missing.
  if (!payloads?.length) return null
  return {
    bytes,
    gzip: await gzipOf(bytes),
    headers,
    storedAt: Number.isFinite(storedAt) ? storedAt : 0,
    payloads,
    expiresAt,
  }
}

function parsePayloads(header: string | null): PagePayload[] | null {
  try {
    const parsed: unknown = JSON.parse(header ?? '')
    if (!Array.isArray(parsed)) return null
    return parsed.every(
      (item) =>
        typeof item?.key === 'string' &&
        typeof item?.tag === 'string' &&
        typeof item?.hash === 'string'
    )
      ? (parsed as PagePayload[])
      : null
  } catch {
    return null
  }
}

type AnswerOptions = { cacheHeaders: PageCacheHeaders; status: PageCacheStatus }

/** The visitor's answer from a stored page: 304 when their copy is current, else the page. */
export function answerFromStore(
  page: StoredPage,
  request: Request,
  options: AnswerOptions
): Response {
  const headers = new Headers(page.headers)
  for (const [name, value] of Object.entries(options.cacheHeaders)) headers.set(name, value)
  // The copy was just checked against the current payloads: for the edge it is as fresh as a new
  // render, so nothing may say it is older (docs/decisions/0041-edge-copies-arrive-fresh-one-trip-leaves.md).
  for (const name of AGEING) headers.delete(name)
  headers.set('X-Page-Cache', options.status)
  if (!/\baccept-encoding\b/i.test(headers.get('Vary') ?? ''))
    headers.append('Vary', 'Accept-Encoding')
  if (matchesEtag(request.headers.get('If-None-Match'), headers.get('ETag'))) {
    headers.delete('Content-Length')
    headers.delete('Content-Type')
    return new Response(null, { status: 304, headers })
  }
  // Behind Cloudflare every request reaches the worker with `Accept-Encoding: br, gzip`, whatever
  // the client sent (its own is in request.cf.clientAcceptEncoding), and the front end encodes the
  // answer for the client's own header (Cloudflare's content compression; Miniflare, under
  // `wrangler dev`, does the same). A client that sent none gets gzip: any coding is acceptable to
  // it (RFC 9110, section 12.5.3). This check serves requests that reach the worker otherwise.
  if (acceptsGzip(request.headers.get('Accept-Encoding'))) {
    headers.set('Content-Encoding', 'gzip')
    // Already encoded: the runtime sends these bytes as they are rather than compressing again.
    return new Response(page.gzip, { status: 200, headers, encodeBody: 'manual' })
  }
  return new Response(page.bytes, { status: 200, headers })
}

/** Whether an Accept-Encoding header allows gzip (RFC 9110, section 12.5.3: `gzip` or `*`, q > 0). */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false
  const weights = new Map<string, number>()
  for (const entry of acceptEncoding.split(',')) {
    const [coding = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase())
    const q = params.find((param) => param.startsWith('q='))
    weights.set(coding, q === undefined ? 1 : Number(q.slice(2)) || 0)
  }
  // An explicit gzip weight wins over the wildcard's.
  return (weights.get('gzip') ?? weights.get('*') ?? 0) > 0
}

async function gzipOf(bytes: Uint8Array): Promise<Uint8Array> {
  const compressed = new Response(bytes).body!.pipeThrough(new CompressionStream('gzip'))
  return new Uint8Array(await new Response(compressed).arrayBuffer())
}

/** If-None-Match uses the weak comparison (RFC 9110, section 13.1.2). */
export function matchesEtag(ifNoneMatch: string | null, etag: string | null): boolean {
  if (!ifNoneMatch || !etag) return false
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag))
}

/**
 * A page's ETag, known before it is rendered: the deployment, the page's cache key and the hashes of
 * the payloads it is rendered from. Weak (RFC 9110, section 8.8.1): the same page is sent plain or
 * gzip-compressed under it. A validation (If-None-Match, or Workers Cache's revalidation after
 * `invalidate()`) is answered 304 without a render while no payload changed.
 */
export async function pageEtag(key: string, payloads: readonly PagePayload[]): Promise<string> {
  const stamps = payloads.map(({ tag, hash }) => `${tag}=${hash}`).sort()
  const digest = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode([key, ...stamps].join('\n')))
  )
  const base64 = btoa(String.fromCharCode(...digest.subarray(0, 18)))
  return `W/"${base64.replace(/\+/g, '-').replace(/\//g, '_')}"`
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16).padStart(8, '0')
}
