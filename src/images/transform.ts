/**
 * Resizing and re-encoding through the Images binding (docs/decisions/0003-image-pipeline.md):
 * the original's dimensions are read first (`IMAGES.info`, header only), so a decompression bomb
 * is refused before anything decodes it; the resize is `scale-down`, never an enlargement. Each
 * call to the binding has a time-out, so a binding that never answers never holds a visitor's
 * request: the route then serves the original, as for any failed transform.
 */
import type { RasterFormat } from './image-format'
import type { Bindings } from '../env'
import { DEFAULT_TRANSFORM_TIMEOUT_MS, MAX_PIXELS, MAX_SIDE, OUTPUT_QUALITY } from './limits'

/** The binding's time-out per call: IMAGE_TRANSFORM_TIMEOUT_MS, else 20 s. */
export function transformTimeoutMs(env: Pick<Bindings, 'IMAGE_TRANSFORM_TIMEOUT_MS'>): number {
  const ms = Number(env.IMAGE_TRANSFORM_TIMEOUT_MS)
  return Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_TRANSFORM_TIMEOUT_MS
}

/** An original whose pixel dimensions are over the route's limits or unreadable: never decoded, never served. */
export class OversizeImageError extends Error {
  override readonly name = 'OversizeImageError'
}

export type Dimensions = { width: number; height: number }

/**
 * The original's pixel dimensions; throws OversizeImageError past MAX_SIDE or MAX_PIXELS, and when
 * the binding cannot read them (a header it refuses, such as sharp's own pixel limit locally).
 */
export async function checkedDimensions(images: ImagesBinding | undefined, bytes: Uint8Array, timeoutMs: number): Promise<Dimensions> {
  // Unbound is a configuration error, not a bad image: the route serves originals and reports it.
  if (!images) throw new Error('the IMAGES binding is not configured (wrangler.toml [images])')
  const info = await withinTime(images.info(streamOf(bytes)), timeoutMs, 'header').catch((error: unknown) => {
    if (error instanceof BindingTimeoutError) throw error
    throw new OversizeImageError(`the original's header could not be read (${String(error)})`)
  })
  if (!('width' in info)) throw new OversizeImageError(`${info.format} has no pixel dimensions`)
  const { width, height } = info
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS) {
    throw new OversizeImageError(`original is ${width}×${height} px, over ${MAX_SIDE} px a side or ${MAX_PIXELS / 1e6} MP`)
  }
  return { width, height }
}

/** `bytes` at most `width` px wide (never wider than the original), encoded as `format`. */
export async function resizeImage(images: ImagesBinding, bytes: Uint8Array, width: number, format: RasterFormat, timeoutMs: number): Promise<Uint8Array> {
  const quality = format === 'image/png' ? undefined : OUTPUT_QUALITY
  const transformed = async () => {
    const result = await images.input(streamOf(bytes)).transform({ width, fit: 'scale-down' }).output({ format, quality })
    return new Uint8Array(await result.response().arrayBuffer())
  }
  const output = await withinTime(transformed(), timeoutMs, `${width}-px ${format}`)
  if (output.byteLength === 0) throw new Error('IMAGES: empty output')
  return output
}

/** The binding gave no answer in time: a failed transform, not a bad image. */
export class BindingTimeoutError extends Error {
  override readonly name = 'BindingTimeoutError'
}

/** `work`'s result, or BindingTimeoutError once `ms` have passed without one. */
async function withinTime<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BindingTimeoutError(`IMAGES: no ${what} within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([work, expired])
  } finally {
    clearTimeout(timer)
  }
}

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new Blob([bytes]).stream()
}
