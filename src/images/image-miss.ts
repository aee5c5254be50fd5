/**
 * A miss: one rendition made once per isolate, within the visitor's wait, finished in the
 * background (docs/decisions/0014-streaming-originals-and-transform-slots.md). Which answer the
 * visitor then gets is ./image-answers.ts.
 *
 * A miss is bounded three ways: per client by IMAGE_RATE_LIMITER (0013-signed-image-addresses.md:
 * counted before any download), per isolate by the transform slots (./transform.ts), and in time:
 * the visitor waits IMAGE_TRANSFORM_TIMEOUT_MS at most; a transform still running then finishes in
 * the background (waitUntil, as long again) and is cached, so the next visitor gets the rendition,
 * and a second request for it in the meantime waits for that one rather than starting another.
 */
import type { Bindings } from '../env'
import { renditionKey, readRendition, storeRendition } from './image-cache'
import { negotiateFormat, type RasterFormat } from './image-format'
import { SOCIAL_CARD, type SlotFallback } from './image-url'
import { openOriginal, originTimeoutMs, type LoadFailure } from './load-original'
import { allowedOrigins, type AllowedSource } from './source-policy'
import { MAX_ORIGINAL_BYTES } from './limits'
import {
  acquireTransformSlot,
  BindingTimeoutError,
  isUndecodableInput,
  MissingBindingError,
  resizeImage,
  transformTimeoutMs,
  type TransformSlot,
} from './transform'

/**
 * A miss may run this many times the visitor's wait in all: the rest in the background, after the
 * answer (waitUntil allows 30 s after it; the default wait is 20 s, so 20 s more).
 */
const BACKGROUND_FACTOR = 2
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
  /**
   * The request said `Cache-Control: only-if-cached` (RFC 9111): the cached rendition or a 504,
   * never a download or a transform. How an operator, or a test, sees whether a warm-up made it.
   */
  onlyIfCached?: true
}

export type RenderContext = {
  env: Bindings
  /** The site's origin, for Cache API keys. */
  origin: string
  waitUntil: (promise: Promise<unknown>) => void
  /** Told about failed transforms and origins that did not answer, like failed backend calls. */
  report: (error: unknown, stage: 'origin' | 'transform') => void
}

export type Rendition = { bytes: Uint8Array; format: RasterFormat }
/** Where a miss is: plain data the visitor's request reads when its wait ends. */
export type Progress = { stage: 'waiting-for-slot' | 'opening' | 'transforming'; bytes: number }
export type MissResult =
  | { ok: true; rendition: Rendition }
  | LoadFailure
  | { ok: false; reason: 'transform-failed' | 'busy' }
/** When the visitor stops waiting for a miss, and when the miss's background work must have ended. */
export type MissDeadlines = { visitorWaitEnds: number; deadline: number }

/**
 * A rendition this request makes: nobody else in the isolate starts it until the miss ends. Either
 * `makeWithinWait` hands the claim to the miss, or `release` gives it up (a miss never started).
 */
export type RenditionClaim = {
  /** The miss's result, or undefined when the visitor's wait ended first (the miss goes on), and where the miss is then. */
  makeWithinWait: (
    source: AllowedSource,
    request: RenderRequest,
    context: RenderContext,
    deadlines: MissDeadlines
  ) => Promise<{ result: MissResult | undefined; progress: Progress }>
  release: () => void
}

// Renditions this isolate is making now, by cache key (plain strings: no request waits on another's promise).
const inProgress = new Set<string>()

/** The deadlines of a miss that starts now. */
export function missDeadlines(env: Bindings): MissDeadlines {
  const started = Date.now()
  const wait = transformTimeoutMs(env)
  return { visitorWaitEnds: started + wait, deadline: started + wait * BACKGROUND_FACTOR }
}

/** The Cache API key of `source`'s rendition for `request` (its width, card or format class) in this deploy. */
export function renditionKeyFor(
  request: RenderRequest,
  source: AllowedSource,
  context: RenderContext
): Request {
  return renditionKey(
    context.origin,
    renditionKind(request),
    request.width,
    source,
    context.env.CF_VERSION_METADATA?.id ?? 'unversioned'
  )
}

/**
 * The claim on `key`'s rendition, or undefined when another request of this isolate is making it.
 * Claimed at once (no await), so a concurrent request for the same rendition waits for this one.
 */
export function claimRendition(key: Request): RenditionClaim | undefined {
  if (inProgress.has(key.url)) return undefined
  inProgress.add(key.url)
  let held = true
  return {
    makeWithinWait: async (source, request, context, deadlines) => {
      const progress: Progress = { stage: 'waiting-for-slot', bytes: MAX_ORIGINAL_BYTES }
      const miss = makeRendition(source, key, request, context, deadlines, progress)
      held = false // makeRendition releases it when the work ends
      return { result: await beforeTime(miss, deadlines.visitorWaitEnds), progress }
    },
    release: () => {
      if (held) inProgress.delete(key.url)
      held = false
    },
  }
}

/** The stored rendition once another request of this isolate has made it, or undefined when `until` comes first. */
export async function renditionFromAnotherRequest(
  key: Request,
  until: number
): Promise<Response | undefined> {
  while (Date.now() + PENDING_POLL_MS < until) {
    await new Promise((resolve) => setTimeout(resolve, PENDING_POLL_MS))
    const found = await readRendition(key)
    if (found) return found
    if (!inProgress.has(key.url)) return readRendition(key)
  }
  return undefined
}

/** One miss counted against the client's budget; true when it is within it. An unbound or failing limiter lets it through. */
export async function withinRateLimit(env: Bindings, client: string): Promise<boolean> {
  try {
    return (await env.IMAGE_RATE_LIMITER.limit({ key: `image:${client}` })).success
  } catch (error) {
    console.warn(`image: rate limiter failed: ${String(error)}`)
    return true
  }
}

/**
 * Download, transform and store one rendition, within `deadline`, registered with waitUntil so
 * that it completes (and is cached) even when the visitor stopped waiting. It waits for a transform
 * slot (./transform.ts) only while the visitor waits, reserving the largest original until the real
 * one's size is known: work that could not start then is not started at all, and nothing is
 * downloaded before it can be transformed. A warm-up passes the slot it already holds (`slotTaken`).
 */
function makeRendition(
  source: AllowedSource,
  key: Request,
  request: RenderRequest,
  context: RenderContext,
  deadlines: MissDeadlines,
  progress: Progress,
  slotTaken?: TransformSlot
): Promise<MissResult> {
  const { env } = context
  const { visitorWaitEnds, deadline } = deadlines
  const work = async (): Promise<MissResult> => {
    const slot = slotTaken ?? (await acquireTransformSlot(visitorWaitEnds, MAX_ORIGINAL_BYTES))
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
    const loaded = await openOriginal(source, {
      assets: env.ASSETS,
      origins: allowedOrigins(env),
      timeoutMs: Math.min(originTimeoutMs(env), remaining()),
      signal: bodySignal,
    })
    if (!loaded.ok) {
      if (loaded.failure === 'unavailable')
        context.report(new Error(`image origin: ${request.src}: ${loaded.detail}`), 'origin')
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
      await storeRendition(key, bytes.slice(), format)
      return { ok: true, rendition: { bytes, format } }
    } catch (error) {
      await original.body.cancel().catch(() => undefined)
      if (original.overLimit()) {
        console.warn(
          `image: ${request.src.slice(0, 200)}: too-large: over the limit while streaming`
        )
        return {
          ok: false,
          failure: 'refused',
          reason: 'too-large',
          detail: 'over the limit while streaming',
        }
      }
      // The CMS's file is damaged (an interrupted upload, garbage behind a valid header): a source
      // that cannot be served, answered like one (the slot's fallback, else 422), never a 5xx.
      if (isUndecodableInput(error)) {
        console.warn(`image: ${request.src.slice(0, 200)}: undecodable: ${String(error)}`)
        return { ok: false, failure: 'refused', reason: 'undecodable', detail: String(error) }
      }
      context.report(
        error instanceof BindingTimeoutError || error instanceof MissingBindingError
          ? error
          : new Error(`image transform: ${request.src}: ${String(error)}`),
        'transform'
      )
      return { ok: false, reason: 'transform-failed' }
    }
  }
  const miss = work().finally(() => inProgress.delete(key.url))
  context.waitUntil(miss)
  return miss
}

/** What a warm-up did with one rendition (./warm-renditions.ts). */
export type WarmOutcome =
  | 'cached'
  /** Another request of this isolate is making it: a visitor, who then has it. */
  | 'taken'
  | 'made'
  /** No background slot came before the warm-up's deadline: visitors had them. */
  | 'no-slot'
  /** The original could not be loaded or transformed (logged and reported as for a miss). */
  | 'failed'

/**
 * Makes `request`'s rendition of `source` before any visitor asks for it, into the cache the route
 * reads, exactly as a miss makes it (one download, one call to the Images binding). Nothing when it
 * is cached or this isolate is making it already. It waits for a background slot, which visitors
 * always get first, until `deadline`, and claims the rendition only once it holds the slot: a
 * visitor who asks meanwhile makes it, and one who asks once it runs waits for it (as for another
 * visitor's miss) rather than behind a warm-up that has not started. No rate limit: the site's own
 * pages name it.
 */
export async function warmRendition(
  source: AllowedSource,
  request: RenderRequest,
  context: RenderContext,
  deadline: number
): Promise<WarmOutcome> {
  const key = renditionKeyFor(request, source, context)
  if (await readRendition(key)) return 'cached'
  if (inProgress.has(key.url)) return 'taken'
  const slot = await acquireTransformSlot(deadline, MAX_ORIGINAL_BYTES, 'background')
  if (!slot) return 'no-slot'
  if (await readRendition(key)) {
    slot.release()
    return 'cached'
  }
  if (inProgress.has(key.url)) {
    slot.release()
    return 'taken'
  }
  inProgress.add(key.url)
  const progress: Progress = { stage: 'opening', bytes: MAX_ORIGINAL_BYTES }
  const result = await makeRendition(
    source,
    key,
    request,
    context,
    { visitorWaitEnds: deadline, deadline },
    progress,
    slot
  )
  return result.ok ? 'made' : 'failed'
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
