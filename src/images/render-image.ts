/**
 * One content image at one width for one browser: from the cache, or loaded, checked, resized and
 * re-encoded, then cached. Every failure has an outcome a page can live with: the slot's bundled
 * fallback at the same width when the page named one, otherwise a 4xx with a plain-text reason;
 * a failed transform serves the original instead of a broken image. Never a 5xx.
 */
import type { Bindings } from '../env'
import { renditionKey, readRendition, storeRendition } from './image-cache'
import { negotiateFormat, type RasterFormat } from './image-format'
import type { SlotFallback } from './image-url'
import { loadOriginal, originTimeoutMs, type LoadFailure } from './load-original'
import { allowedOrigins, checkSource } from './source-policy'
import { checkedDimensions, OversizeImageError, resizeImage, transformTimeoutMs } from './transform'

/** Transformed images: a photo's address never changes content (docs/decisions/0003-image-pipeline.md). */
export const RENDITION_CACHE_CONTROL = 'public, max-age=31536000, immutable'
/** Fallbacks, refusals and originals after a failed transform: retried a minute later. */
export const SHORT_CACHE_CONTROL = 'public, max-age=60'

export type RenderRequest = {
  src: string
  width: number
  accept: string | undefined
  fallback?: SlotFallback
}

export type RenderContext = {
  env: Bindings
  /** The site's origin, for Cache API keys. */
  origin: string
  waitUntil: (promise: Promise<unknown>) => void
  /** Told about failed transforms and origins that did not answer, like failed backend calls. */
  report: (error: unknown, stage: 'origin' | 'transform') => void
}

export async function renderImage(request: RenderRequest, context: RenderContext): Promise<Response> {
  const { env } = context
  const origins = allowedOrigins(env)
  const check = checkSource(request.src, origins)
  if (!check.ok) return textAnswer(403, `Image source refused: ${check.reason}.`)

  const kind = formatClass(request.accept)
  const key = renditionKey(context.origin, kind, request.width, check.source, env.CF_VERSION_METADATA?.id ?? 'unversioned')
  const cached = await readRendition(key)
  if (cached) return withHeaders(cached, { 'X-Image-Cache': 'hit' })

  const loaded = await loadOriginal(check.source, { assets: env.ASSETS, origins, timeoutMs: originTimeoutMs(env) })
  if (!loaded.ok) {
    if (loaded.failure === 'unavailable') context.report(new Error(`image origin: ${request.src}: ${loaded.reason}`), 'origin')
    return failedSource(request, context, loaded)
  }
  const { bytes, format: sourceFormat } = loaded.original
  if (sourceFormat === 'image/svg+xml') {
    return failedSource(request, context, { ok: false, failure: 'refused', reason: 'SVG images are never transformed' }, 415)
  }

  const format = negotiateFormat(request.accept, sourceFormat)
  let output: Uint8Array
  try {
    const timeoutMs = transformTimeoutMs(env)
    await checkedDimensions(env.IMAGES, bytes, timeoutMs)
    output = await resizeImage(env.IMAGES, bytes, request.width, format, timeoutMs)
  } catch (error) {
    if (error instanceof OversizeImageError) return failedSource(request, context, { ok: false, failure: 'refused', reason: error.message })
    context.report(error, 'transform')
    return imageAnswer(bytes, sourceFormat, SHORT_CACHE_CONTROL, { 'X-Image-Cache': 'miss', 'X-Image-Outcome': 'original' })
  }
  const headers = imageHeaders(format, RENDITION_CACHE_CONTROL)
  context.waitUntil(storeRendition(key, output.slice(), headers))
  return imageAnswer(output, format, RENDITION_CACHE_CONTROL, { 'X-Image-Cache': 'miss' })
}

/** The cache key's format class: what the answer's format depends on besides the source. */
function formatClass(accept: string | undefined): string {
  const format = negotiateFormat(accept, 'image/jpeg')
  return format === 'image/jpeg' ? 'original' : format.slice('image/'.length)
}

/** The slot's fallback at the same width when there is one; otherwise a 4xx saying why. */
async function failedSource(request: RenderRequest, context: RenderContext, failure: LoadFailure, refusedStatus: 415 | 422 = 422): Promise<Response> {
  const reason = `Image not available: ${failure.reason}.`
  if (request.fallback && request.src !== request.fallback) {
    const fallback = await renderImage({ ...request, src: request.fallback, fallback: undefined }, context)
    if (fallback.ok) {
      return withHeaders(fallback, { 'Cache-Control': SHORT_CACHE_CONTROL, 'X-Image-Outcome': 'fallback', 'X-Image-Reason': headerSafe(failure.reason) })
    }
  }
  return textAnswer(failure.failure === 'refused' ? refusedStatus : 404, reason)
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

/** A refusal browsers and operators can read; cached briefly so a failing origin is not asked per visitor. */
export function textAnswer(status: 400 | 403 | 404 | 415 | 422, text: string): Response {
  return new Response(`${text}\n`, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': SHORT_CACHE_CONTROL, Vary: 'Accept' },
  })
}

function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 200)
}
