/**
 * A content image, by its address, turned into a small rendition on the server: for placeholders
 * computed at the edge from the image itself (src/images/placeholders.ts). It goes through the
 * route's own allow-list, download code and limits (one place fetches originals), and throws an
 * Error saying why when there is no rendition to make, so a caller can log it and move on.
 */
import type { Bindings } from '../env'
import type { RasterFormat } from './image-format'
import { loadOriginal, originTimeoutMs } from './load-original'
import { allowedOrigins, checkSource } from './source-policy'
import { checkedDimensions, resizeImage, transformTimeoutMs, type Dimensions } from './transform'

/** What renderPreview needs of the bindings. */
export type PreviewEnv = Pick<Bindings, 'IMAGES' | 'ASSETS' | 'API_HOST' | 'IMAGE_ORIGINS' | 'API_TIMEOUT_MS' | 'IMAGE_TRANSFORM_TIMEOUT_MS'>

export type Preview = {
  /** The encoded rendition, e.g. for a `data:` URI. */
  bytes: Uint8Array
  /** The original's pixel size (its aspect ratio). */
  original: Dimensions
}

/**
 * `src` at most `width` px wide, encoded as `format`. Throws when the source is refused, cannot be
 * loaded, is an SVG, is over the pixel limits or fails to transform.
 */
export async function renderPreview(env: PreviewEnv, src: string, width: number, format: RasterFormat = 'image/webp'): Promise<Preview> {
  const origins = allowedOrigins(env)
  const checked = checkSource(src, origins)
  if (!checked.ok) throw new Error(checked.reason)
  const loaded = await loadOriginal(checked.source, { assets: env.ASSETS, origins, timeoutMs: originTimeoutMs(env) })
  if (!loaded.ok) throw new Error(loaded.reason)
  const { bytes, format: sourceFormat } = loaded.original
  if (sourceFormat === 'image/svg+xml') throw new Error('SVG images are never transformed')
  const timeoutMs = transformTimeoutMs(env)
  const original = await checkedDimensions(env.IMAGES, bytes, timeoutMs)
  return { bytes: await resizeImage(env.IMAGES, bytes, width, format, timeoutMs), original }
}
