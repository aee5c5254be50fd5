/**
 * The one place that opens original images, for the route and for placeholders alike. Bundled
 * files come from the ASSETS binding; remote ones with a time-out, redirects followed by hand (each
 * hop checked against the allow-list, so no request ever reaches an address the list does not
 * name), a size limit checked on Content-Length and counted while streaming, and the first bytes
 * sniffed for an image format and read for the pixel size.
 *
 * The original is never held whole: only its first bytes (up to MAX_HEADER_BYTES, until the pixel
 * size is known) are read here; the rest streams on into the Images binding, counted on the way, so
 * a 24 MB photo costs the isolate a few chunks, not 24 MB. The count is of the bytes as read, after
 * fetch has undone any Content-Encoding, so a gzip body that inflates past MAX_ORIGINAL_BYTES is
 * cut off there like any other.
 *
 * Remote originals come through ./fetch-allowed.ts (the allow-list and its redirects); bodies are
 * read through ./chunk-reader.ts (64 KB a read, and a deadline on each).
 */
import type { Bindings } from '../env'
import { readImageSize, type Dimensions } from './image-header'
import { sniffFormat, type RasterFormat } from './image-format'
import { chunkReader, concat, readBefore, type ChunkReader } from './chunk-reader'
import { fetchAllowed } from './fetch-allowed'
import {
  DEFAULT_ORIGIN_TIMEOUT_MS,
  MAX_HEADER_BYTES,
  MAX_ORIGINAL_BYTES,
  MAX_PIXELS,
  MAX_SIDE,
} from './limits'
import type { ImageReason } from './reasons'
import type { AllowedSource } from './source-policy'

/** An original whose header passed every check: its format, pixel size and whole body, still streaming. */
export type OpenOriginal = {
  format: RasterFormat
  size: Dimensions
  /** Its size in bytes as declared (Content-Length of an uncompressed answer), else MAX_ORIGINAL_BYTES (1 MB for a bundled file): what it may cost to transform. */
  bytes: number
  /** The whole file: the bytes already read, then the rest as it arrives; errors past MAX_ORIGINAL_BYTES. */
  body: ReadableStream<Uint8Array>
  /** Whether the body was cut off at MAX_ORIGINAL_BYTES (a transform that failed then failed for that). */
  overLimit: () => boolean
}

/**
 * Why an original cannot be used: `missing` (404 and the like), `refused` (not an image the route
 * transforms), `unavailable` (time-out, 5xx, network). `reason` is the fixed code answers carry;
 * `detail` is for logs only.
 */
export type LoadFailure = {
  ok: false
  failure: 'missing' | 'refused' | 'unavailable'
  reason: ImageReason
  detail: string
}

export type LoadResult = { ok: true; original: OpenOriginal } | LoadFailure

export type LoadOptions = {
  assets: Fetcher
  origins: Set<string>
  /** Time for the origin's answer and the first bytes. */
  timeoutMs: number
  /** Aborts the rest of the body (the whole miss's budget). */
  signal?: AbortSignal
}

/** The download's time-out: API_TIMEOUT_MS, the backend's own, else 10 s. */
export function originTimeoutMs(env: Pick<Bindings, 'API_TIMEOUT_MS'>): number {
  const ms = Number(env.API_TIMEOUT_MS)
  return Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_ORIGIN_TIMEOUT_MS
}

/** Opens `source`: fetched, checked and its header read; the body is left streaming for the caller to consume or cancel. */
export async function openOriginal(
  source: AllowedSource,
  options: LoadOptions
): Promise<LoadResult> {
  const signal = options.signal
    ? AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.signal])
    : AbortSignal.timeout(options.timeoutMs)
  try {
    const response =
      source.kind === 'asset'
        ? await options.assets.fetch(
            new Request(new URL(source.path, 'http://assets.local'), { signal })
          )
        : await fetchAllowed(source.url, options.origins, signal)
    if ('refused' in response) return failed('refused', response.refused, response.detail)
    return await readHeader(
      response,
      signal,
      options.signal,
      source.kind === 'asset' ? BUNDLED_IMAGE_BYTES : MAX_ORIGINAL_BYTES
    )
  } catch (error) {
    const timedOut =
      error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
    return failed(
      'unavailable',
      'origin-unavailable',
      timedOut ? `no answer within ${options.timeoutMs} ms` : `fetch failed: ${String(error)}`
    )
  }
}

/**
 * The size a bundled file counts as when ASSETS names none (it sends no Content-Length): the
 * repository's own images, all far smaller (the largest is 44 KB); the 25 MB cap still
 * counts the bytes.
 */
const BUNDLED_IMAGE_BYTES = 1024 * 1024

async function readHeader(
  response: Response,
  signal: AbortSignal,
  bodySignal: AbortSignal | undefined,
  undeclaredBytes: number
): Promise<LoadResult> {
  if (!response.ok) {
    await response.body?.cancel()
    const missing = response.status >= 400 && response.status < 500
    return missing
      ? failed('missing', 'origin-not-found', `origin answered ${response.status}`)
      : failed('unavailable', 'origin-unavailable', `origin answered ${response.status}`)
  }
  const type = (response.headers.get('Content-Type') ?? '').toLowerCase()
  if (
    type &&
    !type.startsWith('image/') &&
    !type.startsWith('application/octet-stream') &&
    !type.startsWith('binary/octet-stream')
  ) {
    await response.body?.cancel()
    return failed('refused', 'not-an-image', `origin answered ${type}`)
  }
  const declared = Number(response.headers.get('Content-Length'))
  if (declared > MAX_ORIGINAL_BYTES) {
    await response.body?.cancel()
    return failed(
      'refused',
      'too-large',
      `original is ${declared} bytes, over ${MAX_ORIGINAL_BYTES}`
    )
  }
  const reader = chunkReader(
    response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() })
  )
  const giveUp = async (failure: LoadFailure) => {
    await reader.cancel().catch(() => undefined)
    return failure
  }

  // The first bytes: until the format and the pixel size are known.
  const head: Uint8Array[] = []
  let headBytes: Uint8Array = new Uint8Array()
  let done = false
  for (;;) {
    const format = headBytes.length >= 12 || done ? sniffFormat(headBytes) : null
    if (format === 'image/svg+xml')
      return giveUp(failed('refused', 'svg-not-served', 'SVG images are never transformed'))
    if (format) {
      const read = readImageSize(headBytes, format)
      if (read.state === 'unreadable')
        return giveUp(
          failed('refused', 'unreadable-header', `the ${format} header could not be read`)
        )
      if (read.state === 'read') {
        const { width, height } = read.size
        if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS) {
          return giveUp(
            failed(
              'refused',
              'too-many-pixels',
              `original is ${width}×${height} px, over ${MAX_SIDE} px a side or ${MAX_PIXELS / 1e6} MP`
            )
          )
        }
        const bytes =
          declared > 0 && !response.headers.get('Content-Encoding')
            ? declared
            : done
              ? headBytes.length
              : undeclaredBytes
        return {
          ok: true,
          original: streamingOriginal(
            format,
            read.size,
            bytes,
            head,
            headBytes.length,
            done,
            reader,
            bodySignal
          ),
        }
      }
    } else if (headBytes.length >= 1024 || (done && headBytes.length > 0)) {
      return giveUp(
        failed('refused', 'not-an-image', 'origin answered bytes that are not an image')
      )
    }
    if (done)
      return failed(
        'refused',
        format ? 'unreadable-header' : 'not-an-image',
        `origin answered ${headBytes.length} bytes ending before the header`
      )
    if (headBytes.length >= MAX_HEADER_BYTES)
      return giveUp(
        failed(
          'refused',
          'unreadable-header',
          `no pixel size in the first ${MAX_HEADER_BYTES} bytes`
        )
      )
    const chunk = await readBefore(reader, signal)
    if (chunk.done) done = true
    else {
      head.push(chunk.value)
      headBytes = concat(head)
      if (headBytes.length > MAX_ORIGINAL_BYTES)
        return giveUp(
          failed('refused', 'too-large', `original is over ${MAX_ORIGINAL_BYTES} bytes`)
        )
    }
  }
}

/** The whole original as one stream: the chunks already read, then the rest, counted and cut off at MAX_ORIGINAL_BYTES. */
function streamingOriginal(
  format: RasterFormat,
  size: Dimensions,
  bytes: number,
  head: Uint8Array[],
  headLength: number,
  headIsAll: boolean,
  reader: ChunkReader,
  signal: AbortSignal | undefined
): OpenOriginal {
  let total = headLength
  let overLimit = false
  const pending = [...head]
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = pending.shift()
        if (next) return controller.enqueue(next)
        if (headIsAll) return controller.close()
        try {
          const chunk = signal ? await readBefore(reader, signal) : await reader.read()
          if (chunk.done) return controller.close()
          total += chunk.value.byteLength
          if (total > MAX_ORIGINAL_BYTES) {
            overLimit = true
            await reader.cancel().catch(() => undefined)
            return controller.error(new Error(`original is over ${MAX_ORIGINAL_BYTES} bytes`))
          }
          controller.enqueue(chunk.value)
        } catch (error) {
          await reader.cancel().catch(() => undefined)
          controller.error(error)
        }
      },
      async cancel(reason) {
        await reader.cancel(reason).catch(() => undefined)
      },
    },
    { highWaterMark: 0 }
  )
  return { format, size, bytes, body, overLimit: () => overLimit }
}

function failed(failure: LoadFailure['failure'], reason: ImageReason, detail: string): LoadFailure {
  return { ok: false, failure, reason, detail }
}
