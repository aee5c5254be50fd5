/**
 * Placeholders: what a photo's box shows before the photo arrives, so a phone on a slow network
 * sees the page's colours at once. Each is a 16-px-wide WebP of the image itself (about 150 bytes
 * as a data URI), which the browser stretches over the box: a blurred preview. Nobody makes them
 * by hand: they are computed at the edge from the original by `renderPreview` (./preview.ts: the
 * route's own allow-list, download and limits, so originals are fetched in one place), and kept in KV under `placeholder:v1:<source>`, one key per source, so a photo shared by three
 * languages and two pages is computed once, for every data centre.
 *
 * Pages read theirs in one KV call before rendering (`readPlaceholders`); the ones missing are
 * computed after the response (`computePlaceholders`, in waitUntil), so the next render has them.
 * `warmPlaceholders` does both for the scheduled payload refresh, right after payloads change.
 */
import type { Bindings } from '../env'
import { renderPreview, type PreviewEnv } from './preview'

/** A page's placeholders: source address -> data URI. */
export type Placeholders = ReadonlyMap<string, string>

type PlaceholderEnv = PreviewEnv & Pick<Bindings, 'CONTENT_CACHE'>

const KEY_PREFIX = 'placeholder:v1:'
/** KV's longest key, in bytes. */
const MAX_KEY_BYTES = 512
/** KV's bulk read takes at most 100 keys. */
const MAX_KEYS_PER_READ = 100
/** Wide enough for the shape of the light, small enough to inline: ~150 bytes of base64. */
const PREVIEW_WIDTH = 16
/** A photo whose address stays the same but whose bytes change gets a new placeholder within this. */
const PREVIEW_TTL_SECONDS = 30 * 24 * 3600
/** Originals downloaded at once by one isolate, and per call: placeholders never crowd out pages. */
const CONCURRENCY = 2
const MAX_PER_CALL = 12
/** Per scheduled warm-up, which has minutes rather than a visitor waiting. */
const MAX_PER_WARM = 100
/** Stored for a source that could not be loaded or decoded; not a preview, so never painted. */
const UNAVAILABLE = 'unavailable'
/** A source that failed is not tried again by this isolate for this long. */
const RETRY_AFTER_MS = 10 * 60 * 1000
/** Only what this module writes is ever put into a style attribute. */
const PREVIEW_PATTERN = /^data:image\/webp;base64,[A-Za-z0-9+/]+={0,2}$/

// Plain data only: workerd forbids sharing one request's promises or streams with another.
const inProgress = new Set<string>()
const failedAt = new Map<string, number>()

export function placeholderKey(source: string): string {
  return KEY_PREFIX + source
}

/** The stored placeholders of `sources`, in one KV read per 100; a KV failure reads as none. */
export async function readPlaceholders(kv: KVNamespace, sources: readonly string[]): Promise<Map<string, string>> {
  return (await readPlaceholderStates(kv, sources)).previews
}

/**
 * What KV holds for `sources`: the previews, and the sources still pending (nothing stored yet, not
 * even the mark of a source that could not be loaded). A page rendered while some are pending is
 * provisional: shared caches keep it only briefly (src/middleware/page-cache).
 */
export async function readPlaceholderStates(kv: KVNamespace, sources: readonly string[]): Promise<{ previews: Map<string, string>; pending: string[] }> {
  const storable = storableSources(sources)
  const keys = storable.map(placeholderKey)
  const previews = new Map<string, string>()
  const settled = new Set<string>()
  try {
    for (let start = 0; start < keys.length; start += MAX_KEYS_PER_READ) {
      const values = await kv.get(keys.slice(start, start + MAX_KEYS_PER_READ), 'text')
      for (const [key, value] of values) {
        if (value === null) continue
        const source = key.slice(KEY_PREFIX.length)
        settled.add(source)
        if (PREVIEW_PATTERN.test(value)) previews.set(source, value)
      }
    }
  } catch (error) {
    console.warn(`placeholders: not read: ${String(error)}`)
    return { previews, pending: [] }
  }
  return { previews, pending: storable.filter((source) => !settled.has(source)) }
}

/** Computes and stores the placeholders of `sources` that KV does not have yet (all of them, for the scheduled refresh). */
export async function warmPlaceholders(env: PlaceholderEnv, sources: readonly string[]): Promise<void> {
  const { pending } = await readPlaceholderStates(env.CONTENT_CACHE, sources)
  await computePlaceholders(env, pending, MAX_PER_WARM)
}

/**
 * Computes and stores placeholders for `missing` sources (read as absent just before): at most
 * MAX_PER_CALL, CONCURRENCY at a time, skipping any this isolate is already computing or saw fail
 * lately. A source that cannot be loaded or decoded is logged and marked unavailable in KV for
 * RETRY_AFTER_MS, never thrown.
 */
export async function computePlaceholders(env: PlaceholderEnv, missing: readonly string[], limit = MAX_PER_CALL): Promise<void> {
  const now = Date.now()
  const queue = storableSources(missing)
    .filter((source) => !inProgress.has(source) && !(now - (failedAt.get(source) ?? -Infinity) < RETRY_AFTER_MS))
    .slice(0, limit)
  for (const source of queue) inProgress.add(source)
  const worker = async () => {
    for (let source = queue.shift(); source !== undefined; source = queue.shift()) {
      try {
        const { bytes } = await renderPreview(env, source, PREVIEW_WIDTH, 'image/webp')
        await env.CONTENT_CACHE.put(placeholderKey(source), `data:image/webp;base64,${base64(bytes)}`, { expirationTtl: PREVIEW_TTL_SECONDS })
        failedAt.delete(source)
      } catch (error) {
        failedAt.set(source, Date.now())
        console.warn(`placeholders: ${source}: ${error instanceof Error ? error.message : String(error)}`)
        // Settled without a preview, for a while: pages stop waiting for it, and it is tried again later.
        await env.CONTENT_CACHE.put(placeholderKey(source), UNAVAILABLE, { expirationTtl: RETRY_AFTER_MS / 1000 }).catch(() => undefined)
      } finally {
        inProgress.delete(source)
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
}

function base64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** Distinct sources whose key KV can hold. */
const encoder = new TextEncoder()

function storableSources(sources: readonly string[]): string[] {
  return [...new Set(sources)].filter((source) => source && encoder.encode(placeholderKey(source)).byteLength <= MAX_KEY_BYTES)
}
