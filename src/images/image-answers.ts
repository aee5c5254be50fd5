/**
 * One content image at one width for one browser: the HTTP answer. Only addresses the site signed
 * get here (src/routes/images.ts); a rendition is answered from the cache, or made by a miss
 * (./image-miss.ts) and answered as soon as it is ready within the visitor's wait.
 *
 * A visitor whose transform outlasts the wait gets the original streamed through unchanged
 * (docs/decisions/0014-streaming-originals-and-transform-slots.md). Every failure has an outcome a
 * page can live with (the table in docs/decisions/0012-image-route.md): the slot's bundled fallback
 * when the page named one (0015-images-in-pages.md; transformed only while the visitor's wait
 * lasts, else the bundled file as it is), otherwise a 4xx or 5xx with a fixed reason (./reasons.ts).
 * Internal text goes to the logs and Sentry only. A 5xx is for the site's own failures (the
 * binding, time); an original the binding cannot decode is the CMS's bad file and gets a 4xx, like
 * one that is not an image at all.
 */
import { RENDITION_CACHE_CONTROL, readRendition } from './image-cache'
import { sniffFormat, type RasterFormat } from './image-format'
import {
  claimRendition,
  missDeadlines,
  renditionFromAnotherRequest,
  renditionKeyFor,
  withinRateLimit,
  type MissResult,
  type RenderContext,
  type RenderRequest,
} from './image-miss'
import { openOriginal, originTimeoutMs, type LoadFailure } from './load-original'
import { IMAGE_REASONS, type ImageReason } from './reasons'
import { allowedOrigins, checkSource, type AllowedSource } from './source-policy'
import { MissingBindingError } from './transform'

/** Fallbacks, refusals and failures: retried a minute later. */
export const SHORT_CACHE_CONTROL = 'public, max-age=60'
/** Answers that will change within seconds (a transform still running, a busy isolate, a rate limit). */
const NOT_STORED = 'no-store'
/**
 * Largest original streamed to a visitor whose transform outlasted the wait (a camera photo);
 * a larger one would hold the request well past the wait, so that visitor gets a 503 to retry.
 */
const MAX_STREAMED_ORIGINAL_BYTES = 8 * 1024 * 1024

export async function renderImage(
  request: RenderRequest,
  context: RenderContext
): Promise<Response> {
  const { env } = context
  const deadlines = missDeadlines(env)

  const check = checkSource(request.src, allowedOrigins(env))
  if (!check.ok) {
    console.warn(`image: ${request.src.slice(0, 200)}: refused: ${check.reason}`)
    return refusal(403, 'source-refused')
  }
  const key = renditionKeyFor(request, check.source, context)
  const cached = await readRendition(key)
  if (cached) return withHeaders(cached, { 'X-Image-Cache': 'hit' })
  if (request.onlyIfCached)
    return refusal(504, 'not-cached', { 'Cache-Control': NOT_STORED, 'X-Image-Cache': 'miss' })

  const claim = claimRendition(key)
  if (!claim) {
    const done = await renditionFromAnotherRequest(key, deadlines.visitorWaitEnds)
    return done
      ? withHeaders(done, { 'X-Image-Cache': 'hit' })
      : notYet(request, context, 'still-transforming')
  }
  try {
    if (!(await withinRateLimit(env, request.client))) {
      return refusal(429, 'rate-limited', { 'Retry-After': '60', 'Cache-Control': NOT_STORED })
    }
    if (!env.IMAGES) {
      context.report(
        new MissingBindingError('the IMAGES binding is not configured (wrangler.toml [images])'),
        'transform'
      )
      return await streamedOriginal(check.source, context, SHORT_CACHE_CONTROL)
    }
    const { result, progress } = await claim.makeWithinWait(
      check.source,
      request,
      context,
      deadlines
    )
    // The transform outlasts the wait and goes on in the background; the visitor gets the original
    // as it comes (a second download, streamed, never held), as a slow transform always gave it.
    if (
      !result &&
      progress.stage === 'transforming' &&
      progress.bytes <= MAX_STREAMED_ORIGINAL_BYTES
    ) {
      return await streamedOriginal(check.source, context, NOT_STORED, 'still-transforming')
    }
    if (!result && progress.stage === 'waiting-for-slot')
      return await notYet(request, context, 'busy')
    return await missAnswer(result, request, context, deadlines.visitorWaitEnds)
  } finally {
    claim.release()
  }
}

/** What the visitor gets once the miss ended or the wait did (`undefined`). */
function missAnswer(
  result: MissResult | undefined,
  request: RenderRequest,
  context: RenderContext,
  visitorWaitEnds: number
): Response | Promise<Response> {
  if (!result) return notYet(request, context, 'still-transforming')
  if (result.ok)
    return imageAnswer(result.rendition.bytes, result.rendition.format, RENDITION_CACHE_CONTROL, {
      'X-Image-Cache': 'miss',
    })
  if (result.reason === 'busy') return notYet(request, context, 'busy')
  if (result.reason === 'transform-failed') {
    return request.fallback
      ? fallbackAnswer(request, context, 'transform-failed', {})
      : refusal(502, 'transform-failed')
  }
  const failure = result as LoadFailure
  if (request.fallback)
    return fallbackAnswer(request, context, failure.reason, {
      transformUntil: Date.now() < visitorWaitEnds ? visitorWaitEnds : undefined,
    })
  if (failure.failure === 'refused')
    return refusal(failure.reason === 'svg-not-served' ? 415 : 422, failure.reason)
  return refusal(404, failure.reason)
}

/** The answer when the rendition is not ready within the visitor's wait: the bundled fallback as it is, or a 503 to retry. */
function notYet(
  request: RenderRequest,
  context: RenderContext,
  reason: 'still-transforming' | 'busy'
): Promise<Response> | Response {
  if (request.fallback)
    return fallbackAnswer(request, context, reason, { cacheControl: NOT_STORED })
  return refusal(503, reason, { 'Retry-After': '5', 'Cache-Control': NOT_STORED })
}

/**
 * The slot's bundled fallback at the same width: its cached rendition, else transformed when given
 * `transformUntil` (the original failed early: only within the visitor's wait), else the bundled
 * file as it is (a few KB: never transformed after the original used the wait).
 */
async function fallbackAnswer(
  request: RenderRequest,
  context: RenderContext,
  reason: ImageReason,
  options: { transformUntil?: number; cacheControl?: string }
): Promise<Response> {
  const fallback = request.fallback!
  const headers = {
    'Cache-Control': options.cacheControl ?? SHORT_CACHE_CONTROL,
    'X-Image-Outcome': 'fallback',
    'X-Image-Reason': reason,
  }
  const source: AllowedSource = { kind: 'asset', path: fallback }
  const { env } = context
  const key = renditionKeyFor(request, source, context)
  const cached = await readRendition(key)
  if (cached) return withHeaders(cached, headers)
  const ends = options.transformUntil
  const claim = ends && env.IMAGES ? claimRendition(key) : undefined
  if (ends && claim) {
    const { result } = await claim.makeWithinWait(
      source,
      { ...request, src: fallback, fallback: undefined },
      context,
      { visitorWaitEnds: ends, deadline: ends }
    )
    if (result?.ok)
      return imageAnswer(
        result.rendition.bytes,
        result.rendition.format,
        RENDITION_CACHE_CONTROL,
        headers
      )
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
async function streamedOriginal(
  source: AllowedSource,
  context: RenderContext,
  cacheControl: string,
  reason?: ImageReason
): Promise<Response> {
  const { env } = context
  const loaded = await openOriginal(source, {
    assets: env.ASSETS,
    origins: allowedOrigins(env),
    timeoutMs: originTimeoutMs(env),
  })
  if (!loaded.ok) return refusal(loaded.failure === 'refused' ? 422 : 404, loaded.reason)
  const headers = imageHeaders(loaded.original.format, cacheControl)
  headers.set('Vary', 'Accept')
  headers.set('X-Image-Cache', 'miss')
  headers.set('X-Image-Outcome', 'original')
  if (reason) headers.set('X-Image-Reason', reason)
  return new Response(loaded.original.body, { headers })
}

function imageHeaders(format: RasterFormat, cacheControl: string): Headers {
  return new Headers({ 'Content-Type': format, 'Cache-Control': cacheControl })
}

function imageAnswer(
  bytes: Uint8Array,
  format: RasterFormat,
  cacheControl: string,
  extra: Record<string, string>
): Response {
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
export function refusal(
  status: 400 | 403 | 404 | 415 | 422 | 429 | 502 | 503 | 504,
  reason: ImageReason,
  headers: Record<string, string> = {}
): Response {
  return new Response(`${IMAGE_REASONS[reason]}\n`, {
    status,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': SHORT_CACHE_CONTROL,
      Vary: 'Accept',
      'X-Image-Reason': reason,
      ...headers,
    },
  })
}
