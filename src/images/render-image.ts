/**
 * One content image at one width for one browser: from the cache, or opened, checked, streamed
 * through the Images binding and cached. Only addresses the site signed get here (src/routes/images.ts).
 *
 * A miss is bounded three ways (docs/decisions/0003-image-pipeline.md): per client by
 * IMAGE_RATE_LIMITER (429 beyond it, before any download), per isolate by the transform slots
 * (./transform.ts), and in time: the visitor waits IMAGE_TRANSFORM_TIMEOUT_MS at most; a
 * transform still running then finishes in the background (waitUntil, as long again) and is cached, so
 * the next visitor gets the rendition, and a second request for it in the meantime waits for that
 * one rather than starting another.
 *
 * A visitor whose transform outlasts the wait gets the original streamed through unchanged.
 * Every failure has an outcome a page can live with: the slot's bundled fallback when the page named
 * one (transformed only while the visitor's wait lasts, else the bundled file as it is), otherwise a
 * 4xx or 5xx with a fixed reason (./reasons.ts). Internal text goes to the logs and Sentry only.
 * A 5xx is for the site's own failures (the binding, time); an original the binding cannot decode
 * is the CMS's bad file and gets a 4xx, like one that is not an image at all.
 */
import type { Bindings } from '../env'
import { renditionKey, readRendition, storeRendition } from './image-cache'
import { negotiateFormat, sniffFormat, type RasterFormat } from './image-format'
import { SOCIAL_CARD, type SlotFallback } from './image-url'
import { openOriginal, originTimeoutMs, type LoadFailure } from './load-original'
import { IMAGE_REASONS, type ImageReason } from './reasons'
import { allowedOrigins, checkSource, type AllowedSource } from './source-policy'
import { MAX_ORIGINAL_BYTES } from './limits'
import { acquireTransformSlot, BindingTimeoutError, isUndecodableInput, MissingBindingError, resizeImage, transformTimeoutMs, type TransformSlot } from './transform'

/** Transformed images: a photo's address never changes content (docs/decisions/0003-image-pipeline.md). */
export const RENDITION_CACHE_CONTROL = 'public, max-age=31536000, immutable'
/** Fallbacks, refusals and failures: retried a minute later. */
export const SHORT_CACHE_CONTROL = 'public, max-age=60'
/** Answers that will change within seconds (a transform still running, a busy isolate, a rate limit). */
const NOT_STORED = 'no-store'
/**
 * A miss may run this many times the visitor's wait in all: the rest in the background, after the
 * answer (waitUntil allows 30 s after it; the default wait is 20 s, so 20 s more).
 */
const BACKGROUND_FACTOR = 2
/**
 * Largest original streamed to a visitor whose transform outlasted the wait (a camera photo);
 * a larger one would hold the request well past the wait, so that visitor gets a 503 to retry.
 */
const MAX_STREAMED_ORIGINAL_BYTES = 8 * 1024 * 1024
/** How often a request waiting on another's transform of the same rendition looks at the cache. */
const PENDING_POLL_MS = 100

export type RenderRequest = {
  src: string
  width: number
  accept: string | undefined
  fallback?: SlotFallback
  /** Who asks (CF-Connecting-IP): the rate limit's key. */
  client: string
  /** A social card: cropped to SOCIAL_CARD, JPEG or PNG whatever `accept` says (./image-url.ts). */
  card?: true
}

export type RenderContext = {
  env: Bindings
  /** The site's origin, for Cache API keys. */
  origin: string
  waitUntil: (promise: Promise<unknown>) => void
  /** Told about failed transforms and origins that did not answer, like failed backend calls. */
  report: (error: unknown, stage: 'origin' | 'transform') => void
}

type Rendition = { bytes: Uint8Array; format: RasterFormat }
/** Where a miss is: plain data the visitor's request reads when its wait ends. */
type Progress = { stage: 'waiting-for-slot' | 'opening' | 'transforming'; bytes: number }
type MissResult = { ok: true; rendition: Rendition } | LoadFailure | { ok: false; reason: 'transform-failed' | 'busy' }

// Renditions this isolate is making now, by cache key (plain strings: no request waits on another's promise).
const inProgress = new Set<string>()

export async function renderImage(request: RenderRequest, context: RenderContext): Promise<Response> {
  const { env } = context
  const started = Date.now()
  const wait = transformTimeoutMs(env)
  const visitorWaitEnds = started + wait
  const deadline = started + wait * BACKGROUND_FACTOR

  const origins = allowedOrigins(env)
  const check = checkSource(request.src, origins)
  if (!check.ok) {
    console.warn(`image: ${request.src.slice(0, 200)}: refused: ${check.reason}`)
    return refusal(403, 'source-refused')
  }
  const key = renditionKey(context.origin, renditionKind(request), request.width, check.source, env.CF_VERSION_METADATA?.id ?? 'unversioned')
  const cached = await readRendition(key)
  if (cached) return withHeaders(cached, { 'X-Image-Cache': 'hit' })

  if (inProgress.has(key.url)) {
    const done = await pollCache(key, visitorWaitEnds)
    return done ? withHeaders(done, { 'X-Image-Cache': 'hit' }) : notYet(request, context, 'still-transforming')
  }
  // Claimed before the first await, so a concurrent request for the same rendition waits for this one.
  inProgress.add(key.url)
  let claimed = true
  try {
    if (!(await withinRateLimit(env, request.client))) {
      return refusal(429, 'rate-limited', { 'Retry-After': '60', 'Cache-Control': NOT_STORED })
    }
    if (!env.IMAGES) {
      context.report(new MissingBindingError('the IMAGES binding is not configured (wrangler.toml [images])'), 'transform')
      return await streamedOriginal(check.source, context, SHORT_CACHE_CONTROL)
    }
    const progress: Progress = { stage: 'waiting-for-slot', bytes: MAX_ORIGINAL_BYTES }
    const miss = makeRendition(check.source, key, request, context, visitorWaitEnds, deadline, progress)
    claimed = false // makeRendition releases it when the work ends
    const result = await beforeTime(miss, visitorWaitEnds)
    // The transform outlasts the wait and goes on in the background; the visitor gets the original
    // as it comes (a second download, streamed, never held), as a slow transform always gave it.
    if (!result && progress.stage === 'transforming' && progress.bytes <= MAX_STREAMED_ORIGINAL_BYTES) {
      return await streamedOriginal(check.source, context, NOT_STORED, 'still-transforming')
    }
    if (!result && progress.stage === 'waiting-for-slot') return await notYet(request, context, 'busy')
    return await missAnswer(result, request, context, visitorWaitEnds)
  } finally {
    if (claimed) inProgress.delete(key.url)
  }
}

/** What the visitor gets once the miss ended or the wait did (`undefined`). */
function missAnswer(result: MissResult | undefined, request: RenderRequest, context: RenderContext, visitorWaitEnds: number): Response | Promise<Response> {
  if (!result) return notYet(request, context, 'still-transforming')
  if (result.ok) return imageAnswer(result.rendition.bytes, result.rendition.format, RENDITION_CACHE_CONTROL, { 'X-Image-Cache': 'miss' })
  if (result.reason === 'busy') return notYet(request, context, 'busy')
  if (result.reason === 'transform-failed') {
    return request.fallback ? fallbackAnswer(request, context, 'transform-failed', { transform: false }) : refusal(502, 'transform-failed')
  }
  const failure = result as LoadFailure
  if (request.fallback) return fallbackAnswer(request, context, failure.reason, { transform: Date.now() < visitorWaitEnds, visitorWaitEnds })
  if (failure.failure === 'refused') return refusal(failure.reason === 'svg-not-served' ? 415 : 422, failure.reason)
  return refusal(404, failure.reason)
}

/**
 * Download, transform and store one rendition, within `deadline`, registered with waitUntil so
 * that it completes (and is cached) even when the visitor stopped waiting. It waits for a transform
 * slot (./transform.ts) only while the visitor waits, reserving the largest original until the real
 * one's size is known: work that could not start then is not started at all, and nothing is
 * downloaded before it can be transformed.
 */
function makeRendition(
  source: AllowedSource,
  key: Request,
  request: RenderRequest,
  context: RenderContext,
  slotDeadline: number,
  deadline: number,
  progress: Progress = { stage: 'waiting-for-slot', bytes: MAX_ORIGINAL_BYTES },
): Promise<MissResult> {
  const { env } = context
  inProgress.add(key.url)
  const work = async (): Promise<MissResult> => {
    const slot = await acquireTransformSlot(slotDeadline, MAX_ORIGINAL_BYTES)
    if (!slot) return { ok: false, reason: 'busy' }
    progress.stage = 'opening'
    try {
      return await transformInSlot(slot)
    } finally {
      slot.release()
    }
  }
  const transformInSlot = async (slot: TransformSlot): Promise<MissResult> => {
    const remaining = () => Math.max(1, deadline - Date.now())
    const bodySignal = AbortSignal.timeout(remaining())
    const loaded = await openOriginal(source, { assets: env.ASSETS, origins: allowedOrigins(env), timeoutMs: Math.min(originTimeoutMs(env), remaining()), signal: bodySignal })
    if (!loaded.ok) {
      if (loaded.failure === 'unavailable') context.report(new Error(`image origin: ${request.src}: ${loaded.detail}`), 'origin')
      else console.warn(`image: ${request.src.slice(0, 200)}: ${loaded.reason}: ${loaded.detail}`)
      return loaded
    }
    const { original } = loaded
    slot.resize(original.bytes)
    progress.bytes = original.bytes
    progress.stage = 'transforming'
    const format = negotiateFormat(request.card ? undefined : request.accept, original.format)
    try {
      const size = request.card ? SOCIAL_CARD : { width: request.width }
      const bytes = await resizeImage(env.IMAGES, original.body, size, format, remaining())
      await storeRendition(key, bytes.slice(), imageHeaders(format, RENDITION_CACHE_CONTROL))
      return { ok: true, rendition: { bytes, format } }
    } catch (error) {
      await original.body.cancel().catch(() => undefined)
      if (original.overLimit()) {
        console.warn(`image: ${request.src.slice(0, 200)}: too-large: over the limit while streaming`)
        return { ok: false, failure: 'refused', reason: 'too-large', detail: 'over the limit while streaming' }
      }
      // The CMS's file is damaged (an interrupted upload, garbage behind a valid header): a source
      // that cannot be served, answered like one (the slot's fallback, else 422), never a 5xx.
      if (isUndecodableInput(error)) {
        console.warn(`image: ${request.src.slice(0, 200)}: undecodable: ${String(error)}`)
        return { ok: false, failure: 'refused', reason: 'undecodable', detail: String(error) }
      }
      context.report(error instanceof BindingTimeoutError || error instanceof MissingBindingError ? error : new Error(`image transform: ${request.src}: ${String(error)}`), 'transform')
      return { ok: false, reason: 'transform-failed' }
    }
  }
  const miss = work().finally(() => inProgress.delete(key.url))
  context.waitUntil(miss)
  return miss
}

/** The answer when the rendition is not ready within the visitor's wait: the bundled fallback as it is, or a 503 to retry. */
function notYet(request: RenderRequest, context: RenderContext, reason: 'still-transforming' | 'busy'): Promise<Response> | Response {
  if (request.fallback) return fallbackAnswer(request, context, reason, { transform: false, cacheControl: NOT_STORED })
  return refusal(503, reason, { 'Retry-After': '5', 'Cache-Control': NOT_STORED })
}

/**
 * The slot's bundled fallback at the same width: its cached rendition, else transformed when
 * `transform` allows (the original failed early, and only within the visitor's wait), else the
 * bundled file as it is (a few KB: never transformed after the original used the wait).
 */
async function fallbackAnswer(
  request: RenderRequest,
  context: RenderContext,
  reason: ImageReason,
  options: { transform: boolean; visitorWaitEnds?: number; cacheControl?: string },
): Promise<Response> {
  const fallback = request.fallback!
  const headers = { 'Cache-Control': options.cacheControl ?? SHORT_CACHE_CONTROL, 'X-Image-Outcome': 'fallback', 'X-Image-Reason': reason }
  const source: AllowedSource = { kind: 'asset', path: fallback }
  const { env } = context
  const key = renditionKey(context.origin, renditionKind(request), request.width, source, env.CF_VERSION_METADATA?.id ?? 'unversioned')
  const cached = await readRendition(key)
  if (cached) return withHeaders(cached, headers)
  if (options.transform && options.visitorWaitEnds && env.IMAGES && !inProgress.has(key.url)) {
    const ends = options.visitorWaitEnds
    const result = await beforeTime(makeRendition(source, key, { ...request, src: fallback, fallback: undefined }, context, ends, ends), ends)
    if (result?.ok) return imageAnswer(result.rendition.bytes, result.rendition.format, RENDITION_CACHE_CONTROL, headers)
  }
  const file = await env.ASSETS.fetch(new Request(new URL(fallback, 'http://assets.local')))
  const bytes = new Uint8Array(await file.arrayBuffer())
  const format = sniffFormat(bytes)
  if (!file.ok || !format || format === 'image/svg+xml') return refusal(404, reason)
  return imageAnswer(bytes, format, headers['Cache-Control'], headers)
}

/**
 * The original streamed through unchanged (counted and cut off at the limit, never held): for a
 * deploy without the IMAGES binding, and for a visitor whose transform outlasted the wait.
 */
async function streamedOriginal(source: AllowedSource, context: RenderContext, cacheControl: string, reason?: ImageReason): Promise<Response> {
  const { env } = context
  const loaded = await openOriginal(source, { assets: env.ASSETS, origins: allowedOrigins(env), timeoutMs: originTimeoutMs(env) })
  if (!loaded.ok) return refusal(loaded.failure === 'refused' ? 422 : 404, loaded.reason)
  const headers = imageHeaders(loaded.original.format, cacheControl)
  headers.set('Vary', 'Accept')
  headers.set('X-Image-Cache', 'miss')
  headers.set('X-Image-Outcome', 'original')
  if (reason) headers.set('X-Image-Reason', reason)
  return new Response(loaded.original.body, { headers })
}

/** One miss counted against the client's budget; true when it is within it. An unbound or failing limiter lets it through. */
async function withinRateLimit(env: Bindings, client: string): Promise<boolean> {
  try {
    return (await env.IMAGE_RATE_LIMITER.limit({ key: `image:${client}` })).success
  } catch (error) {
    console.warn(`image: rate limiter failed: ${String(error)}`)
    return true
  }
}

/** The stored rendition once another request of this isolate has made it, or undefined when `until` comes first. */
async function pollCache(key: Request, until: number): Promise<Response | undefined> {
  while (Date.now() + PENDING_POLL_MS < until) {
    await new Promise((resolve) => setTimeout(resolve, PENDING_POLL_MS))
    const found = await readRendition(key)
    if (found) return found
    if (!inProgress.has(key.url)) return readRendition(key)
  }
  return undefined
}

/** `work`'s result, or undefined at `until` (the work goes on). */
async function beforeTime<T>(work: Promise<T>, until: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const waited = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, until - Date.now()))
  })
  try {
    return await Promise.race([work, waited])
  } finally {
    clearTimeout(timer)
  }
}

/** The cache key's kind: a social card, or the format class of a ladder width. */
function renditionKind(request: RenderRequest): string {
  return request.card ? 'card' : formatClass(request.accept)
}

/** The cache key's format class: what the answer's format depends on besides the source. */
function formatClass(accept: string | undefined): string {
  const format = negotiateFormat(accept, 'image/jpeg')
  return format === 'image/jpeg' ? 'original' : format.slice('image/'.length)
}

function imageHeaders(format: RasterFormat, cacheControl: string): Headers {
  return new Headers({ 'Content-Type': format, 'Cache-Control': cacheControl })
}

function imageAnswer(bytes: Uint8Array, format: RasterFormat, cacheControl: string, extra: Record<string, string>): Response {
  const headers = imageHeaders(format, cacheControl)
  headers.set('Vary', 'Accept')
  for (const [name, value] of Object.entries(extra)) headers.set(name, value)
  return new Response(bytes, { headers })
}

function withHeaders(response: Response, extra: Record<string, string>): Response {
  const copy = new Response(response.body, response)
  copy.headers.set('Vary', 'Accept')
  for (const [name, value] of Object.entries(extra)) copy.headers.set(name, value)
  return copy
}

/**
 * An answer without an image: the fixed sentence of `reason` as plain text, the code in
 * X-Image-Reason, cached briefly unless `headers` say otherwise (a failing origin is then asked
 * about once a minute per cache, not per visitor).
 */
export function refusal(status: 400 | 403 | 404 | 415 | 422 | 429 | 502 | 503, reason: ImageReason, headers: Record<string, string> = {}): Response {
  return new Response(`${IMAGE_REASONS[reason]}\n`, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': SHORT_CACHE_CONTROL, Vary: 'Accept', 'X-Image-Reason': reason, ...headers },
  })
}
