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
let runningInBackground = 0
const SLOT_POLL_MS = 25

/**
 * Who waits for a slot: a visitor's request (a miss, a placeholder), or the background warm-up of
 * renditions after a content change (./warm-renditions.ts), which must never keep a visitor waiting.
 */
export type SlotPriority = 'visitor' | 'background'

/**
 * Transforms the background may run at once: the rest of the isolate's slots stay for visitors.
 */
export const MAX_BACKGROUND_TRANSFORMS = 2

/**
 * The requests waiting for a slot, oldest first: a slot goes to the oldest visitor that still
 * waits, and to the background only when no visitor waits. Each waiter marks when it last looked;
 * one that stopped looking (its request was cancelled) is passed over after STALE_WAITER_MS.
 */
type Waiter = { id: number; priority: SlotPriority; lookedAt: number }
const waiters: Waiter[] = []
let nextWaiterId = 0
const STALE_WAITER_MS = 40 * SLOT_POLL_MS

/** A transform's place in this isolate: `bytes` of originals reserved until released. */
export type TransformSlot = {
  /** Lowers (or raises) the reservation once the original's real size is known. */
  resize: (bytes: number) => void
  release: () => void
}

/**
 * A slot once this isolate runs fewer than MAX_TRANSFORMS_AT_ONCE transforms and `bytes` fits in
 * MAX_TRANSFORM_BYTES_AT_ONCE with theirs (or nothing else runs), in the order the requests came:
 * a request waits behind the visitors that came before it, never behind luck (waiters poll, and
 * without an order a request could lose every turn until its wait ran out while later ones got
 * slots). `background` work takes a slot only when no visitor waits, and at most
 * MAX_BACKGROUND_TRANSFORMS at once. Null when no slot comes before `deadline` (a Date.now()
 * value). Taken before the original is opened, with the largest size it may have, so originals
 * waiting for a slot are not downloaded yet.
 */
export async function acquireTransformSlot(
  deadline: number,
  bytes: number,
  priority: SlotPriority = 'visitor'
): Promise<TransformSlot | null> {
  const me: Waiter = { id: nextWaiterId++, priority, lookedAt: Date.now() }
  waiters.push(me)
  const fits = () =>
    running === 0 ||
    (running < MAX_TRANSFORMS_AT_ONCE && runningBytes + bytes <= MAX_TRANSFORM_BYTES_AT_ONCE)
  const myTurn = () => {
    const now = Date.now()
    let ahead = true
    for (const waiter of waiters) {
      if (waiter === me) ahead = false
      else if (now - waiter.lookedAt > STALE_WAITER_MS) continue
      // A visitor goes after the visitors before it; the background after everyone before it and
      // after every visitor, whenever that visitor came.
      else if (ahead && (waiter.priority === 'visitor' || priority === 'background')) return false
      else if (!ahead && priority === 'background' && waiter.priority === 'visitor') return false
    }
    return true
  }
  const allowed = () => priority === 'visitor' || runningInBackground < MAX_BACKGROUND_TRANSFORMS
  try {
    while (!(myTurn() && allowed() && fits())) {
      if (Date.now() + SLOT_POLL_MS > deadline) return null
      await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS))
      me.lookedAt = Date.now()
    }
  } finally {
    const index = waiters.indexOf(me)
    if (index >= 0) waiters.splice(index, 1)
    pruneStaleWaiters()
  }
  running++
  runningBytes += bytes
  if (priority === 'background') runningInBackground++
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
      if (priority === 'background') runningInBackground--
    },
  }
}

/** Drops waiters whose requests stopped looking long ago, so the list cannot grow without end. */
function pruneStaleWaiters() {
  const now = Date.now()
  for (let index = waiters.length - 1; index >= 0; index--)
    if (now - waiters[index]!.lookedAt > 10 * STALE_WAITER_MS) waiters.splice(index, 1)
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
