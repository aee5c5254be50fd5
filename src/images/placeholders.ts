/**
 * Placeholders: what a photo's box shows before the photo arrives, so a phone on a slow network
 * sees the page's colours at once. Each is a 16-px-wide WebP of the image itself (about 150 bytes
 * as a data URI), which the browser stretches over the box: a blurred preview. Nobody makes them
 * by hand: they are computed at the edge from the original by `renderPreview` (./preview.ts: the
 * route's own allow-list, download and limits, so originals are fetched in one place), and kept in KV under `placeholder:v1:<source>`, one key per source, so a photo shared by three
 * languages and two pages is computed once, for every data centre.
 *
 * Every settled placeholder is copied into one more key, the index (`placeholder-index:v1`), which a
 * render reads beside its payloads (`readPlaceholderIndex`), without knowing its images yet: so no
 * render waits for a placeholder read after its payloads (docs/decisions/0032). The per-source keys
 * stay the store; the index is a copy of them, rebuilt from them whenever it lacks one. A page's
 * sources the index does not hold are read and computed after the response (`settlePlaceholders`,
 * in waitUntil), so the next render has them. `warmPlaceholders` does the same for the scheduled
 * payload refresh and the publish hook, right after payloads change.
 */
import type { Bindings } from '../env'
import { isolateMemo } from '../freshness'
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
/**
 * Settled sources this isolate read or wrote lately: their preview, or UNAVAILABLE, and until when
 * it holds: its key's expiry, `exact` when this isolate wrote the key or read the index; for a value
 * read from its own key (whose age KV does not say), counted from that read.
 */
const settled = new Map<string, { value: string; seenAt: number; until: number; exact: boolean }>()
/** How long an isolate trusts a settled source without asking KV again (a preview lives 30 days). */
const SETTLED_MEMO_MS = 60_000
/** Far beyond the few dozen images of the site's pages: a bound, not a size anyone should reach. */
const MAX_SETTLED = 2_000

/** Remembers a settled source; `until` when its key's expiry is known (written here, or indexed). */
function remember(source: string, value: string, seenAt: number, until?: number) {
  if (settled.size >= MAX_SETTLED && !settled.has(source)) settled.clear()
  settled.set(source, {
    value,
    seenAt,
    until: until ?? seenAt + lifetimeOf(value),
    exact: until !== undefined,
  })
}

/**
 * The KV key of the index: every settled source, its value (a preview or UNAVAILABLE) and when its
 * own key expires, `{ [source]: { value, until } }`. One key for the whole site (a few dozen
 * images, ~200 bytes each), for every backend and product: previews are per source, as their keys are.
 */
export const PLACEHOLDER_INDEX_KEY = 'placeholder-index:v1'
/** Far beyond the site's images: the index stays one small read. The oldest go first. */
const MAX_INDEX_ENTRIES = 1_000
type IndexEntry = { value: string; until: number }

/** When this isolate last read (or wrote) the index; within SETTLED_MEMO_MS it is not read again. */
const indexRead = isolateMemo<true>()

/** How long a settled value is good for, from when it was settled: its own key's expiry. */
function lifetimeOf(value: string): number {
  return value === UNAVAILABLE ? RETRY_AFTER_MS : PREVIEW_TTL_SECONDS * 1000
}

function parseIndex(text: string | null): Map<string, IndexEntry> {
  const entries = new Map<string, IndexEntry>()
  if (text === null) return entries
  try {
    const parsed: unknown = JSON.parse(text)
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return entries
    for (const [source, entry] of Object.entries(parsed as Record<string, unknown>)) {
      const { value, until } = (entry ?? {}) as Partial<IndexEntry>
      if (typeof value !== 'string' || typeof until !== 'number') continue
      if (value !== UNAVAILABLE && !PREVIEW_PATTERN.test(value)) continue
      entries.set(source, { value, until })
    }
  } catch {
    // An unreadable index holds nothing: its sources are read from their own keys after the response.
  }
  return entries
}

/**
 * Reads the index into what this isolate remembers, unless it did so in the last SETTLED_MEMO_MS:
 * one KV read, which needs no payload, so a render starts it beside its payload reads
 * (src/images/page-placeholders.ts). Never rejects: a failed read remembers nothing.
 */
export async function readPlaceholderIndex(
  kv: KVNamespace,
  now: () => number = Date.now
): Promise<void> {
  const at = now()
  if (indexRead.recall(PLACEHOLDER_INDEX_KEY, SETTLED_MEMO_MS, at)) return
  let text: string | null
  try {
    text = await kv.get(PLACEHOLDER_INDEX_KEY, 'text')
  } catch (error) {
    console.warn(`placeholders: index not read: ${String(error)}`)
    return
  }
  rememberIndex(parseIndex(text), at)
}

/** Remembers the index's entries (those this isolate has not settled lately itself) as read at `at`. */
function rememberIndex(index: ReadonlyMap<string, IndexEntry>, at: number) {
  indexRead.remember(PLACEHOLDER_INDEX_KEY, true, at)
  for (const [source, { value, until }] of index) {
    const known = settled.get(source)
    const recent = known && at - known.seenAt < SETTLED_MEMO_MS && at >= known.seenAt
    if (until > at && !recent) remember(source, value, at, until)
  }
}

/**
 * What this isolate remembers of `sources` without asking KV: the previews of those settled within
 * SETTLED_MEMO_MS, and the storable sources it does not know (`unknown`).
 */
export function rememberedPlaceholders(
  sources: readonly string[],
  at: number = Date.now()
): { previews: Map<string, string>; unknown: string[] } {
  const previews = new Map<string, string>()
  const unknown: string[] = []
  for (const source of new Set(sources)) {
    const known = settled.get(source)
    if (known && at - known.seenAt < SETTLED_MEMO_MS && at >= known.seenAt) {
      if (known.value !== UNAVAILABLE) previews.set(source, known.value)
    } else if (isStorable(source)) {
      unknown.push(source)
    }
  }
  return { previews, unknown }
}

/** This isolate's writes of the index, one after another. */
let indexWrites: Promise<unknown> = Promise.resolve()

/**
 * Copies what this isolate settled of `sources` (read from their keys or computed) into the index:
 * reads KV's index, adds them, drops expired entries, and writes it when something was added. KV has
 * no compare-and-set: two writers at once can lose one's entries, which the next render that lacks
 * them reads from their own keys and adds again. Never rejects.
 */
export function indexSettledPlaceholders(
  kv: KVNamespace,
  sources: readonly string[],
  now: () => number = Date.now
): Promise<void> {
  const write = indexWrites.then(async () => {
    const at = now()
    const index = parseIndex(await kv.get(PLACEHOLDER_INDEX_KEY, 'text'))
    rememberIndex(index, at)
    let added = false
    for (const source of new Set(sources)) {
      const known = settled.get(source)
      if (!known) continue
      const until = known.until
      const held = index.get(source)
      // A value read back from its own key never extends the index's entry of it: a photo replaced
      // under the same address must still be redrawn once its key expires.
      if (held && held.value === known.value && (!known.exact || held.until >= until)) continue
      index.delete(source)
      index.set(source, { value: known.value, until })
      added = true
    }
    if (!added) return
    const kept = [...index].filter(([, entry]) => entry.until > at).slice(-MAX_INDEX_ENTRIES)
    await kv.put(PLACEHOLDER_INDEX_KEY, JSON.stringify(Object.fromEntries(kept)))
  })
  indexWrites = write.catch((error: unknown) =>
    console.warn(`placeholders: index not written: ${String(error)}`)
  )
  return indexWrites as Promise<void>
}

/**
 * After a render that lacked some of its placeholders: reads `sources` from their own keys,
 * computes the ones KV does not have, and copies all of them into the index, so the next render
 * (in any isolate) has them.
 */
export async function settlePlaceholders(env: PlaceholderEnv, sources: readonly string[]) {
  const { pending } = await readPlaceholderStates(env.CONTENT_CACHE, sources)
  await computePlaceholders(env, pending)
  await indexSettledPlaceholders(env.CONTENT_CACHE, sources)
}

export function placeholderKey(source: string): string {
  return KEY_PREFIX + source
}

/**
 * What KV holds for `sources`: the previews, and the sources still pending (nothing stored yet, not
 * even the mark of a source that could not be loaded). A page rendered while some are pending is
 * provisional: shared caches keep it only briefly (src/freshness/).
 *
 * A settled source (a preview, or the mark of one that could not be loaded) is remembered by the
 * isolate for SETTLED_MEMO_MS: a render reads KV only for the sources it has not settled lately, so
 * most renders make no KV call for their placeholders at all (a KV read of some forty
 * keys was a third of a render's CPU). A pending source is asked again on every render.
 */
export async function readPlaceholderStates(
  kv: KVNamespace,
  sources: readonly string[],
  now: () => number = Date.now
): Promise<{ previews: Map<string, string>; pending: string[] }> {
  const at = now()
  const { previews, unknown } = rememberedPlaceholders(sources, at)
  if (unknown.length === 0) return { previews, pending: [] }
  const found = new Set<string>()
  try {
    for (let start = 0; start < unknown.length; start += MAX_KEYS_PER_READ) {
      const values = await kv.get(
        unknown.slice(start, start + MAX_KEYS_PER_READ).map(placeholderKey),
        'text'
      )
      for (const [key, value] of values) {
        if (value === null) continue
        const source = key.slice(KEY_PREFIX.length)
        found.add(source)
        const preview = PREVIEW_PATTERN.test(value) ? value : UNAVAILABLE
        remember(source, preview, at)
        if (preview !== UNAVAILABLE) previews.set(source, preview)
      }
    }
  } catch (error) {
    console.warn(`placeholders: not read: ${String(error)}`)
    return { previews, pending: [] }
  }
  return { previews, pending: unknown.filter((source) => !found.has(source)) }
}

/** Computes and stores the placeholders of `sources` that KV does not have yet (all of them, for the scheduled refresh). */
export async function warmPlaceholders(
  env: PlaceholderEnv,
  sources: readonly string[]
): Promise<void> {
  const { pending } = await readPlaceholderStates(env.CONTENT_CACHE, sources)
  await computePlaceholders(env, pending, MAX_PER_WARM)
  await indexSettledPlaceholders(env.CONTENT_CACHE, sources)
}

/**
 * Computes and stores placeholders for `missing` sources (read as absent just before): at most
 * MAX_PER_CALL, CONCURRENCY at a time, skipping any this isolate is already computing or saw fail
 * lately. A source that cannot be loaded or decoded is logged and marked unavailable in KV for
 * RETRY_AFTER_MS, never thrown.
 */
export async function computePlaceholders(
  env: PlaceholderEnv,
  missing: readonly string[],
  limit = MAX_PER_CALL
): Promise<void> {
  const now = Date.now()
  const queue = storableSources(missing)
    .filter(
      (source) =>
        !inProgress.has(source) && !(now - (failedAt.get(source) ?? -Infinity) < RETRY_AFTER_MS)
    )
    .slice(0, limit)
  for (const source of queue) inProgress.add(source)
  const worker = async () => {
    for (let source = queue.shift(); source !== undefined; source = queue.shift()) {
      try {
        const { bytes } = await renderPreview(env, source, PREVIEW_WIDTH, 'image/webp')
        const preview = `data:image/webp;base64,${base64(bytes)}`
        await env.CONTENT_CACHE.put(placeholderKey(source), preview, {
          expirationTtl: PREVIEW_TTL_SECONDS,
        })
        const madeAt = Date.now()
        remember(source, preview, madeAt, madeAt + lifetimeOf(preview))
        failedAt.delete(source)
      } catch (error) {
        failedAt.set(source, Date.now())
        console.warn(
          `placeholders: ${source}: ${error instanceof Error ? error.message : String(error)}`
        )
        // Settled without a preview, for a while: pages stop waiting for it, and it is tried again later.
        await env.CONTENT_CACHE.put(placeholderKey(source), UNAVAILABLE, {
          expirationTtl: RETRY_AFTER_MS / 1000,
        }).catch(() => undefined)
        const markedAt = Date.now()
        remember(source, UNAVAILABLE, markedAt, markedAt + lifetimeOf(UNAVAILABLE))
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

/** Whether KV can hold the key of `source`. */
const encoder = new TextEncoder()

function isStorable(source: string): boolean {
  return Boolean(source) && encoder.encode(placeholderKey(source)).byteLength <= MAX_KEY_BYTES
}

/** Distinct sources whose key KV can hold. */
function storableSources(sources: readonly string[]): string[] {
  return [...new Set(sources)].filter(isStorable)
}
