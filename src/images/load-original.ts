/**
 * The one place that downloads original images, for the route and for placeholders alike. Bundled
 * files come from the ASSETS binding; remote ones with a time-out, redirects followed by hand (each
 * hop checked against the allow-list, so no request ever reaches an address the list does not
 * name), a size limit checked on Content-Length and counted while streaming, and the bytes sniffed
 * for an image format.
 */
import type { Bindings } from '../env'
import { sniffFormat, type SniffedFormat } from './image-format'
import { DEFAULT_ORIGIN_TIMEOUT_MS, MAX_ORIGINAL_BYTES, MAX_REDIRECTS } from './limits'
import { isAllowedUrl, type AllowedSource } from './source-policy'

export type Original = { bytes: Uint8Array; format: SniffedFormat }

/** Why an original could not be used: `missing` (404 and the like), `refused`, `unavailable` (time-out, 5xx). */
export type LoadFailure = { ok: false; failure: 'missing' | 'refused' | 'unavailable'; reason: string }

export type LoadResult = { ok: true; original: Original } | LoadFailure

export type LoadOptions = {
  assets: Fetcher
  origins: Set<string>
  timeoutMs: number
}

/** The download's time-out: API_TIMEOUT_MS, the backend's own, else 10 s. */
export function originTimeoutMs(env: Pick<Bindings, 'API_TIMEOUT_MS'>): number {
  const ms = Number(env.API_TIMEOUT_MS)
  return Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_ORIGIN_TIMEOUT_MS
}

export async function loadOriginal(source: AllowedSource, options: LoadOptions): Promise<LoadResult> {
  const signal = AbortSignal.timeout(options.timeoutMs)
  try {
    const response = source.kind === 'asset' ? await options.assets.fetch(new Request(new URL(source.path, 'http://assets.local'), { signal })) : await fetchAllowed(source.url, options.origins, signal)
    if (!('status' in response)) return response
    return await readImage(response, signal)
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
    return failed('unavailable', timedOut ? `no answer within ${options.timeoutMs} ms` : `fetch failed: ${String(error)}`)
  }
}

/** GET `url`, following up to MAX_REDIRECTS redirects that stay on allowed origins. */
async function fetchAllowed(url: URL, origins: Set<string>, signal: AbortSignal): Promise<Response | LoadFailure> {
  let current = url
  for (let hop = 0; ; hop++) {
    const response = await fetch(current, { redirect: 'manual', signal, headers: { Accept: 'image/avif,image/webp,image/*;q=0.8' } })
    const location = response.headers.get('Location')
    if (response.status < 300 || response.status >= 400 || !location) return response
    await response.body?.cancel()
    if (hop >= MAX_REDIRECTS) return failed('refused', `more than ${MAX_REDIRECTS} redirects`)
    const next = URL.parse(location, current)
    if (!next) return failed('refused', `redirect to an address that does not parse: ${location.slice(0, 100)}`)
    if (!isAllowedUrl(next, origins)) return failed('refused', `redirect to ${next.origin}, which is not an allowed image origin`)
    current = next
  }
}

async function readImage(response: Response, signal: AbortSignal): Promise<LoadResult> {
  if (!response.ok) {
    await response.body?.cancel()
    const missing = response.status >= 400 && response.status < 500
    return failed(missing ? 'missing' : 'unavailable', `origin answered ${response.status}`)
  }
  const type = (response.headers.get('Content-Type') ?? '').toLowerCase()
  if (type && !type.startsWith('image/') && !type.startsWith('application/octet-stream') && !type.startsWith('binary/octet-stream')) {
    await response.body?.cancel()
    return failed('refused', `origin answered ${type}, not an image`)
  }
  const declared = Number(response.headers.get('Content-Length'))
  if (declared > MAX_ORIGINAL_BYTES) {
    await response.body?.cancel()
    return failed('refused', `original is ${declared} bytes, over ${MAX_ORIGINAL_BYTES}`)
  }
  const bytes = await readCapped(response.body, signal)
  if (!bytes) return failed('refused', `original is over ${MAX_ORIGINAL_BYTES} bytes`)
  const format = sniffFormat(bytes)
  if (!format) return failed('refused', 'origin answered bytes that are not an image')
  return { ok: true, original: { bytes, format } }
}

/** The whole body, or null as soon as it passes MAX_ORIGINAL_BYTES (the rest is never read). */
async function readCapped(body: ReadableStream<Uint8Array> | null, signal: AbortSignal): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array()
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await readBefore(reader, signal)
    if (done) break
    total += value.byteLength
    if (total > MAX_ORIGINAL_BYTES) {
      await reader.cancel()
      return null
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/** reader.read(), or the signal's reason once it aborts: a stalled body never holds the route. */
function readBefore(reader: ReadableStreamDefaultReader<Uint8Array>, signal: AbortSignal) {
  signal.throwIfAborted()
  let onAbort = () => {}
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      reader.cancel().catch(() => {})
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
  return Promise.race([reader.read(), aborted]).finally(() => signal.removeEventListener('abort', onAbort))
}

function failed(failure: LoadFailure['failure'], reason: string): LoadFailure {
  return { ok: false, failure, reason }
}
