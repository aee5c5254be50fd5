/**
 * Resizing and re-encoding through the Images binding (docs/decisions/0012-image-route.md, 0014). The
 * original streams in (./load-original.ts read its header and checked the pixel limits), the resize
 * is `scale-down`, never an enlargement, and each call has a time-out, so a binding that never
 * answers never holds a request. An isolate runs at most MAX_TRANSFORMS_AT_ONCE transforms, of
 * originals of at most MAX_TRANSFORM_BYTES_AT_ONCE together; the others wait for a slot within their
 * own time.
 */
import type { RasterFormat } from './image-format'
import type { Bindings } from '../env'
import {
  DEFAULT_TRANSFORM_TIMEOUT_MS,
  MAX_TRANSFORM_BYTES_AT_ONCE,
  MAX_TRANSFORMS_AT_ONCE,
  OUTPUT_QUALITY,
} from './limits'

/** A visitor's wait for a miss: IMAGE_TRANSFORM_TIMEOUT_MS, else 20 s. */
export function transformTimeoutMs(env: Pick<Bindings, 'IMAGE_TRANSFORM_TIMEOUT_MS'>): number {
  const ms = Number(env.IMAGE_TRANSFORM_TIMEOUT_MS)
  return Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_TRANSFORM_TIMEOUT_MS
}

/** The deploy has no IMAGES binding: a configuration error, reported, not a bad image. */
export class MissingBindingError extends Error {
  override readonly name = 'MissingBindingError'
}

/** The binding gave no answer in time. */
export class BindingTimeoutError extends Error {
  override readonly name = 'BindingTimeoutError'
}

/**
 * Cloudflare Images' code for an input it cannot decode ("could not perform resizing ... when an
 * image has invalid format", https://developers.cloudflare.com/images/reference/troubleshooting/):
 * the local binding answers a truncated or garbled JPEG, PNG, GIF, WebP or AVIF with it too.
 */
const UNDECODABLE_INPUT = 9523

/** Whether the binding refused the original itself (an ImagesError with code 9523), rather than failed. */
export function isUndecodableInput(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    Number(error.code) === UNDECODABLE_INPUT
  )
}

/**
 * `original` (a stream) at most `size.width` px wide (never wider than it is), encoded as `format`;
 * with a height, cropped to cover exactly `width` × `height` (a social card).
 */
export async function resizeImage(
  images: ImagesBinding | undefined,
  original: ReadableStream<Uint8Array>,
  size: { width: number; height?: number },
  format: RasterFormat,
  timeoutMs: number
): Promise<Uint8Array> {
  if (!images)
    throw new MissingBindingError('the IMAGES binding is not configured (wrangler.toml [images])')
  const quality = format === 'image/png' ? undefined : OUTPUT_QUALITY
  const { width, height } = size
  const transform =
    height === undefined
      ? { width, fit: 'scale-down' as const }
      : { width, height, fit: 'cover' as const }
  const transformed = async () => {
    const result = await images.input(original).transform(transform).output({ format, quality })
    return new Uint8Array(await result.response().arrayBuffer())
  }
  const output = await withinTime(
    transformed(),
    timeoutMs,
    `${height === undefined ? `${width}-px` : `${width}×${height}`} ${format}`
  )
  if (output.byteLength === 0) throw new Error('IMAGES: empty output')
  return output
}

// Plain data only: workerd forbids one request resolving another's promise, so waiters poll.
let running = 0
let runningBytes = 0
const SLOT_POLL_MS = 25

/** A transform's place in this isolate: `bytes` of originals reserved until released. */
export type TransformSlot = {
  /** Lowers (or raises) the reservation once the original's real size is known. */
  resize: (bytes: number) => void
  release: () => void
}

/**
 * A slot once this isolate runs fewer than MAX_TRANSFORMS_AT_ONCE transforms and `bytes` fits in
 * MAX_TRANSFORM_BYTES_AT_ONCE with theirs (or nothing else runs); null when that does not happen
 * before `deadline` (a Date.now() value). Taken before the original is opened, with the largest
 * size it may have, so originals waiting for a slot are not downloaded yet.
 */
export async function acquireTransformSlot(
  deadline: number,
  bytes: number
): Promise<TransformSlot | null> {
  const fits = () =>
    running === 0 ||
    (running < MAX_TRANSFORMS_AT_ONCE && runningBytes + bytes <= MAX_TRANSFORM_BYTES_AT_ONCE)
  while (!fits()) {
    if (Date.now() + SLOT_POLL_MS > deadline) return null
    await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS))
  }
  running++
  runningBytes += bytes
  let reserved = bytes
  let released = false
  return {
    resize(next) {
      if (released) return
      runningBytes += next - reserved
      reserved = next
    },
    release() {
      if (released) return
      released = true
      running--
      runningBytes -= reserved
    },
  }
}

/** `work`'s result, or BindingTimeoutError once `ms` have passed without one. */
export async function withinTime<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BindingTimeoutError(`IMAGES: no ${what} within ${ms} ms`)),
      ms
    )
  })
  try {
    return await Promise.race([work, expired])
  } finally {
    clearTimeout(timer)
  }
}
