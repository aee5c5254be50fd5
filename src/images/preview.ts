/**
 * A very small rendition of a content image, for placeholders computed at the edge from the image
 * itself: the same allow-list and the same download code as the route (loadOriginal), then a
 * resize to a few pixels. Cached like any rendition, so a page render pays for it once per source.
 */
import type { Bindings } from '../env'
import { readRendition, renditionKey, storeRendition } from './image-cache'
import { DEFAULT_ORIGIN_TIMEOUT_MS } from './limits'
import { loadOriginal } from './load-original'
import { allowedOrigins, checkSource } from './source-policy'
import { checkedDimensions, resizeImage } from './transform'

export type PreviewFormat = 'image/webp' | 'image/png' | 'image/jpeg'

export type Preview = {
  /** The encoded preview, e.g. for a `data:` URL. */
  bytes: Uint8Array
  contentType: PreviewFormat
  /** The original's pixel dimensions (its aspect ratio). */
  originalWidth: number
  originalHeight: number
}

export type PreviewOptions = {
  /** Width of the preview in px; default 16. */
  width?: number
  /** Default image/webp. PNG is lossless, for reading pixels back (dominant colour). */
  format?: PreviewFormat
  /** The site's origin (Cache API keys are URLs); default https://site.internal. */
  origin?: string
  /** Keeps the cache write alive after the response (ctx.waitUntil); without it the write is awaited. */
  waitUntil?: (promise: Promise<unknown>) => void
}

/** A `width`-px preview of `src`, or null when the source is refused, missing, SVG or fails to transform. */
export async function loadPreview(env: Bindings, src: string, options: PreviewOptions = {}): Promise<Preview | null> {
  const width = options.width ?? 16
  const format = options.format ?? 'image/webp'
  const origins = allowedOrigins(env)
  const check = checkSource(src, origins)
  if (!check.ok) return null
  const key = renditionKey(options.origin ?? 'https://site.internal', `preview-${format.slice(6)}`, width, src)
  const cached = await readRendition(key)
  if (cached) {
    return {
      bytes: new Uint8Array(await cached.arrayBuffer()),
      contentType: format,
      originalWidth: Number(cached.headers.get('X-Original-Width')),
      originalHeight: Number(cached.headers.get('X-Original-Height')),
    }
  }
  const timeoutMs = Number(env.API_TIMEOUT_MS) > 0 ? Number(env.API_TIMEOUT_MS) : DEFAULT_ORIGIN_TIMEOUT_MS
  const loaded = await loadOriginal(check.source, { assets: env.ASSETS, origins, timeoutMs })
  if (!loaded.ok || loaded.original.format === 'image/svg+xml') return null
  try {
    const { width: originalWidth, height: originalHeight } = await checkedDimensions(env.IMAGES, loaded.original.bytes)
    const bytes = await resizeImage(env.IMAGES, loaded.original.bytes, width, format)
    const headers = new Headers({
      'Content-Type': format,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Original-Width': String(originalWidth),
      'X-Original-Height': String(originalHeight),
    })
    const store = storeRendition(key, bytes.slice(), headers)
    if (options.waitUntil) options.waitUntil(store)
    else await store
    return { bytes, contentType: format, originalWidth, originalHeight }
  } catch {
    return null
  }
}
