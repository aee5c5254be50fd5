/**
 * The payload cache: KV entries `{ storedAt, changedAt, hash, schema, payload }`, one per backend
 * payload, under the freshness contract of docs/decisions/0004-content-freshness.md.
 *
 * - One writer per key: the scheduled refresh (src/content/refresh.ts) rewrites entries before
 *   they reach `ttlSeconds`. Request handlers only read, except to fill a key that does not exist
 *   yet, and, where no scheduled refresh runs (`refreshesOnRequest`, as under `wrangler dev`), to
 *   refresh an entry aged past the TTL in the background, so the next visit has the current content.
 * - Stale-if-error: nothing is written when the backend fails, so the last good entry stays
 *   (for RETAIN_SECONDS).
 * - Every entry carries the hash of its payload: pages are tagged and validated by the hashes of the
 *   payloads they were rendered from (src/middleware/page-cache/), so a refresh that changed nothing
 *   invalidates nothing.
 *
 * - Stored payloads are trusted: a payload is validated (and its HTML sanitized) once, when it is
 *   loaded from the backend, and stored with the version of the schema that did it (`schema`). A
 *   read of an entry of the current version uses the payload as stored; an entry of another version
 *   (a deploy changed the schema) is validated again on its first read in each isolate, and that
 *   result is kept until the scheduled refresh rewrites the entry at the current version.
 *
 * Concurrent loads of one key in one isolate share one backend call. workerd forbids using one
 * request's I/O objects from another request, so only plain parsed data is shared, and every
 * waiter keeps its own deadline so a stuck call in one request cannot hang the others.
 */
import { ContentError } from './errors'

/** `changedAt`: when the content last differed from the entry before (its first store, else a change). */
export type CacheEntry<T> = { storedAt: number; changedAt: number; hash: string; schema?: string; payload: T }
/** What a page needs to know of a payload it was rendered from. */
export type PayloadStamp = { hash: string; storedAt: number; changedAt?: number }
/** What a refresh did: stored content that differs from the entry before it, or the same again. */
export type RefreshOutcome = 'changed' | 'unchanged'

export type PayloadCacheOptions = {
  kv: KVNamespace
  /** Seconds an entry counts as fresh. */
  ttlSeconds: number
  /** Keeps background work alive after the response is sent. */
  waitUntil: (promise: Promise<unknown>) => void
  /** Milliseconds a waiter gives a shared call before giving up on it. */
  deadlineMs: number
  /** The clock; injected so tests can age entries without fake timers. */
  now?: () => number
  /** Told about every failed refresh or load, for logs and error reporting. */
  onError?: (key: string, error: unknown) => void
  /**
   * Whether a request may refresh an entry aged past the TTL: only when no scheduled refresh is
   * keeping entries fresh. Default: never (the scheduled refresh is the one writer).
   */
  refreshesOnRequest?: () => Promise<boolean>
  /** Told about every entry a read served, so the page can be tagged with what it was built from. */
  onRead?: (key: string, stamp: PayloadStamp) => void
  /** Told when a request-side load stored a payload that differs from the entry before it. */
  onChanged?: (key: string) => void
  /**
   * Milliseconds for which an isolate uses the entry it last read for a key without reading KV
   * again (default 0: every read goes to KV). Only for reads through this same KV binding, so a
   * request that must skip the payload cache (the bench's bypass) still does.
   */
  readMemoMs?: number
  /**
   * The version of the schemas that validated what `load` returns, stored in each entry: an entry of
   * this version is used as stored, one of any other is validated again. Default: '' (every read
   * validates, as when no version is known).
   */
  schemaVersion?: string
}

/** How long an entry stays in KV at all: the window in which a stale copy can still be served. */
export const RETAIN_SECONDS = 30 * 24 * 60 * 60

const inFlight = new Map<string, Promise<unknown>>()
/** The stamp this isolate last read or wrote for each key, and when: pages are validated against it. */
const knownStamps = new Map<string, { stamp: PayloadStamp; seenAt: number }>()

/**
 * The current stamp of `key`: what this isolate last read or wrote, if that was within `maxAgeMs`,
 * else KV's. Null when KV has no entry.
 */
export async function currentStamp(kv: KVNamespace, key: string, maxAgeMs: number, now: () => number = Date.now): Promise<PayloadStamp | null> {
  const known = knownStamps.get(key)
  if (known && now() - known.seenAt < maxAgeMs && now() >= known.seenAt) return known.stamp
  const entry = await kv.get<Partial<CacheEntry<unknown>>>(key, 'json').catch(() => null)
  if (!entry || typeof entry.hash !== 'string' || typeof entry.storedAt !== 'number') return null
  const stamp = { hash: entry.hash, storedAt: entry.storedAt }
  knownStamps.set(key, { stamp, seenAt: now() })
  return stamp
}

/**
 * Payloads of entries stored by another schema version, as this isolate validated them, by key: an
 * older entry costs one validation per isolate, not one per render, until the refresh rewrites it.
 */
const revalidated = new Map<string, { hash: string; storedAt: number; schema: unknown; payload: unknown }>()

/**
 * The last text read for each key and the entry parsed from it: a render reads the same few
 * entries again and again, and an unchanged text is not parsed again (plain data, shared read-only,
 * as the revalidated payloads above are).
 */
const parsedTexts = new Map<string, { text: string; entry: CacheEntry<unknown> | null }>()

/** The entry in `text` (KV's value of `key`), parsed once per isolate while the text is the same. */
function parsedEntry(key: string, text: string | null): CacheEntry<unknown> | null {
  if (text === null) return null
  const known = parsedTexts.get(key)
  if (known && known.text === text) return known.entry
  const entry = JSON.parse(text) as CacheEntry<unknown> | null
  parsedTexts.set(key, { text, entry })
  return entry
}

/**
 * The text each KV binding last gave for each key, and when: read again only after `readMemoMs`.
 * By binding, so that a binding that finds nothing (the bench's bypass) is never answered from
 * another's reads.
 */
let recentTexts = new WeakMap<KVNamespace, Map<string, { text: string | null; readAt: number }>>()

function recentTextsOf(kv: KVNamespace) {
  let texts = recentTexts.get(kv)
  if (!texts) recentTexts.set(kv, (texts = new Map()))
  return texts
}

/** Forgets the stamps and revalidated payloads this isolate has seen, as a new isolate starts (tests). */
export function forgetKnownStamps() {
  knownStamps.clear()
  revalidated.clear()
  parsedTexts.clear()
  recentTexts = new WeakMap()
}

function rememberStamp(key: string, stamp: PayloadStamp, seenAt: number) {
  knownStamps.set(key, { stamp, seenAt })
}

export function createPayloadCache(options: PayloadCacheOptions) {
  const now = options.now ?? Date.now
  const ttlMs = options.ttlSeconds * 1000
  const schemaVersion = options.schemaVersion ?? ''
  const readMemoMs = options.readMemoMs ?? 0

  /** The stored payload: as stored when this schema version wrote it, else validated (once per isolate). */
  function trustedPayload<T>(key: string, entry: CacheEntry<unknown>, validate: (stored: unknown) => T): T {
    if (schemaVersion && entry.schema === schemaVersion) return entry.payload as T
    const known = revalidated.get(key)
    if (known && known.hash === entry.hash && known.storedAt === entry.storedAt && known.schema === entry.schema) return known.payload as T
    const payload = validate(entry.payload)
    if (schemaVersion) revalidated.set(key, { hash: entry.hash, storedAt: entry.storedAt, schema: entry.schema, payload })
    return payload
  }

  /** KV's text for `key`, or the one read less than `readMemoMs` ago through the same binding. */
  async function readText(key: string): Promise<string | null> {
    if (readMemoMs <= 0) return options.kv.get(key, 'text')
    const texts = recentTextsOf(options.kv)
    const at = now()
    const recent = texts.get(key)
    if (recent && at - recent.readAt < readMemoMs && at >= recent.readAt) return recent.text
    const text = await options.kv.get(key, 'text')
    texts.set(key, { text, readAt: at })
    return text
  }

  /** After a write through this binding, its reads see the new text at once. */
  function rememberWrite(key: string, text: string) {
    if (readMemoMs > 0) recentTextsOf(options.kv).set(key, { text, readAt: now() })
  }

  async function readEntry<T>(key: string, validate: (stored: unknown) => T, { skipPayload = false } = {}): Promise<CacheEntry<T> | null> {
    try {
      const entry = parsedEntry(key, await readText(key))
      if (!entry || typeof entry.storedAt !== 'number' || typeof entry.hash !== 'string') return null
      const changedAt = typeof entry.changedAt === 'number' ? entry.changedAt : entry.storedAt
      return { storedAt: entry.storedAt, changedAt, hash: entry.hash, payload: skipPayload ? (undefined as T) : trustedPayload(key, entry, validate) }
    } catch (error) {
      options.onError?.(key, error)
      return null
    }
  }

  /** Loads `key` from the backend and writes it; resolves once KV has it. Writes nothing on failure. */
  async function loadAndStore<T>(key: string, load: () => Promise<T>): Promise<{ payload: T; stamp: PayloadStamp; outcome: RefreshOutcome }> {
    const payload = await load()
    const previous = await options.kv.get<Partial<CacheEntry<unknown>>>(key, 'json').catch(() => null)
    const hash = await hashOf(payload)
    const outcome: RefreshOutcome = previous?.hash === hash ? 'unchanged' : 'changed'
    const changedAt = outcome === 'unchanged' && typeof previous?.changedAt === 'number' ? previous.changedAt : now()
    const entry: CacheEntry<T> = { storedAt: now(), changedAt, hash, schema: schemaVersion, payload }
    const text = JSON.stringify(entry)
    await options.kv.put(key, text, { expirationTtl: RETAIN_SECONDS })
    rememberWrite(key, text)
    const stamp = { hash, storedAt: entry.storedAt, changedAt }
    rememberStamp(key, stamp, now())
    return { payload, stamp, outcome }
  }

  /** Starts (or joins) this isolate's one backend call for `key`. */
  function loadShared<T>(key: string, load: () => Promise<T>): Promise<{ payload: T; stamp: PayloadStamp; outcome: RefreshOutcome }> {
    type Loaded = Awaited<ReturnType<typeof loadAndStore<T>>>
    const running = inFlight.get(key) as Promise<Loaded> | undefined
    if (running) return withDeadline(running, options.deadlineMs)
    const call = loadAndStore(key, load).finally(() => inFlight.delete(key))
    inFlight.set(key, call)
    options.waitUntil(call.catch(() => undefined))
    return call
  }

  /** A request-side load: reports a changed payload, so the pages built from it can be purged. */
  async function fill<T>(key: string, load: () => Promise<T>) {
    const loaded = await loadShared(key, load)
    if (loaded.outcome === 'changed') options.onChanged?.(key)
    return loaded
  }

  return {
    /**
     * The payload for `key`: from KV, or loaded now when KV has none. An entry aged past the TTL is
     * served as it is, and refreshed in the background only where `refreshesOnRequest` allows.
     * `validate` re-checks a stored payload written by another schema version (an older release);
     * one that fails it counts as a miss. An entry of the current version is not checked again.
     */
    async read<T>(key: string, load: () => Promise<T>, validate: (stored: unknown) => T): Promise<T> {
      const entry = await readEntry<T>(key, validate)
      if (!entry) {
        try {
          const loaded = await fill(key, load)
          options.onRead?.(key, loaded.stamp)
          return loaded.payload
        } catch (error) {
          options.onError?.(key, error)
          throw error
        }
      }
      const stamp = { hash: entry.hash, storedAt: entry.storedAt }
      rememberStamp(key, stamp, now())
      options.onRead?.(key, stamp)
      if (now() - entry.storedAt >= ttlMs && (await options.refreshesOnRequest?.())) {
        options.waitUntil(fill(key, load).catch((error) => options.onError?.(key, error)))
      }
      return entry.payload
    },

    /**
     * Loads `key` from the backend now and stores it: the scheduled refresh and the publish hook.
     * Rejects, writing nothing, when the backend fails.
     */
    async refresh<T>(key: string, load: () => Promise<T>): Promise<RefreshOutcome> {
      return (await loadShared(key, load)).outcome
    },

    /** The hash and times of the entry under `key`, or null when there is none. */
    async stampOf(key: string): Promise<PayloadStamp | null> {
      // Only the stamp: the payload is neither validated nor remembered.
      const entry = await readEntry(key, () => undefined, { skipPayload: true })
      return entry && { hash: entry.hash, storedAt: entry.storedAt, changedAt: entry.changedAt }
    },
  }
}

export type PayloadCache = ReturnType<typeof createPayloadCache>

/** A short SHA-256 of the payload's JSON: equal payloads, equal hashes. */
async function hashOf(payload: unknown): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(payload)))
  const base64 = btoa(String.fromCharCode(...new Uint8Array(digest).subarray(0, 12)))
  return base64.replace(/\+/g, '-').replace(/\//g, '_')
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ContentError('timeout', `shared backend call did not settle within ${ms} ms`)),
      ms,
    )
  })
  return Promise.race([promise, deadline]).finally(() => {
    if (timer !== undefined) clearTimeout(timer)
  })
}
