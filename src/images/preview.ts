/**
 * A content image, by its address, turned into a small rendition on the server: for placeholders
 * computed at the edge from the image itself (src/images/placeholders.ts). It goes through the
 * route's own allow-list, download code and limits (one place fetches originals), and throws an
 * Error saying why when there is no rendition to make, so a caller can log it and move on.
 */
import type { Bindings } from '../env'
import type { Dimensions } from './image-header'
import type { RasterFormat } from './image-format'
import { openOriginal, originTimeoutMs } from './load-original'
import { IMAGE_REASONS } from './reasons'
import { allowedOrigins, checkSource } from './source-policy'
import { MAX_ORIGINAL_BYTES } from './limits'
import { acquireTransformSlot, resizeImage, transformTimeoutMs } from './transform'

/** What renderPreview needs of the bindings. */
export type PreviewEnv = Pick<
  Bindings,
  | 'IMAGES'
  | 'ASSETS'
  | 'API_HOST'
  | 'IMAGE_ORIGINS'
  | 'API_TIMEOUT_MS'
  | 'IMAGE_TRANSFORM_TIMEOUT_MS'
>

export type Preview = {
  /** The encoded rendition, e.g. for a `data:` URI. */
  bytes: Uint8Array
  /** The original's pixel size (its aspect ratio). */
  original: Dimensions
}

/**
 * `src` at most `width` px wide, encoded as `format`. Throws when the source is refused, cannot be
 * loaded, is an SVG, is over the limits or fails to transform; it takes one of the isolate's
 * transform slots, like a route miss, within IMAGE_TRANSFORM_TIMEOUT_MS.
 */
export async function renderPreview(
  env: PreviewEnv,
  src: string,
  width: number,
  format: RasterFormat = 'image/webp'
): Promise<Preview> {
  const origins = allowedOrigins(env)
  const checked = checkSource(src, origins)
  if (!checked.ok) throw new Error(checked.reason)
  const deadline = Date.now() + transformTimeoutMs(env)
  const remaining = () => Math.max(1, deadline - Date.now())
  const slot = await acquireTransformSlot(deadline, MAX_ORIGINAL_BYTES)
  if (!slot) throw new Error('no transform slot freed up in time')
  try {
    const loaded = await openOriginal(checked.source, {
      assets: env.ASSETS,
      origins,
      timeoutMs: Math.min(originTimeoutMs(env), remaining()),
      signal: AbortSignal.timeout(remaining()),
    })
    if (!loaded.ok) throw new Error(`${IMAGE_REASONS[loaded.reason]} (${loaded.detail})`)
    const { body, size, bytes } = loaded.original
    slot.resize(bytes)
    try {
      return {
        bytes: await resizeImage(env.IMAGES, body, { width }, format, remaining()),
        original: size,
      }
    } catch (error) {
      await body.cancel().catch(() => undefined)
      throw error
    }
  } finally {
    slot.release()
  }
}
