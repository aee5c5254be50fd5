/**
 * The payload cache's storage (./payload-cache.ts holds its freshness policy): KV entries
 * `{ storedAt, changedAt, hash, schema, payload }`, one per backend payload, and what each isolate
 * remembers of them.
 *
 * - Every entry carries the hash of its payload: pages are tagged and validated by the hashes of
 *   the payloads they were rendered from (src/freshness/), so a refresh that changed
 *   nothing invalidates nothing.
 * - Stored payloads are trusted: a payload is validated (and its HTML sanitized) once, when it is
 *   loaded from the backend, and stored with the version of the schema that did it (`schema`). A
 *   read of an entry of the current version uses the payload as stored; an entry of another
 *   version (a deploy changed the schema) is validated again on its first read in each isolate,
 *   and that result is kept until the scheduled refresh rewrites the entry at the current version.
 * - Entries stay in KV for RETAIN_SECONDS: the window in which a stale copy can still be served.
 * - Every write also sets the entry's hash in the payload hashes key (./payload-hashes.ts), which
 *   pages are checked against.
 *
 * Only plain parsed data is remembered per isolate (workerd forbids sharing one request's I/O
 * objects with another), and each memo is bounded by the keys there are.
 */
import { isolateMemo, MAX_KEYS } from './isolate-memo'
import { writePayloadHashes } from './payload-hashes'

/** `changedAt`: when the content last differed from the entry before (its first store, else a change). */
export type CacheEntry<T> = {
  storedAt: number
  changedAt: number
  hash: string
  schema?: string
  payload: T
}
/** What a page needs to know of a payload it was rendered from. */
export type PayloadStamp = { hash: string; storedAt: number; changedAt?: number }
/** What a store did: content that differs from the entry before it, or the same again. */
export type RefreshOutcome = 'changed' | 'unchanged'

/** How long an entry stays in KV at all: the window in which a stale copy can still be served. */
export const RETAIN_SECONDS = 30 * 24 * 60 * 60

/** The stamp this isolate last read or wrote for each key, and when: pages are validated against it. */
const knownStamps = isolateMemo<PayloadStamp>()

/**
 * The current stamp of `key`: what this isolate last read or wrote, if that was within `maxAgeMs`,
 * else KV's. Null when KV has no entry.
 */
export async function currentStamp(
  kv: KVNamespace,
  key: string,
  maxAgeMs: number,
  now: () => number = Date.now
): Promise<PayloadStamp | null> {
  const known = knownStamps.recall(key, maxAgeMs, now())
  if (known) return known.value
  const entry = await kv.get<Partial<CacheEntry<unknown>>>(key, 'json').catch(() => null)
  if (!entry || typeof entry.hash !== 'string' || typeof entry.storedAt !== 'number') return null
  const stamp = { hash: entry.hash, storedAt: entry.storedAt }
  knownStamps.remember(key, stamp, now())
  return stamp
}

/**
 * Payloads of entries stored by another schema version, as this isolate validated them, by key: an
 * older entry costs one validation per isolate, not one per render, until the refresh rewrites it.
 */
const revalidated = new Map<
  string,
  { hash: string; storedAt: number; schema: unknown; payload: unknown }
>()

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
  if (parsedTexts.size >= MAX_KEYS && !known) parsedTexts.clear()
  parsedTexts.set(key, { text, entry })
  return entry
}

/** The text KV last gave for each key, and when: read again only after `readMemoMs`. */
const recentTexts = isolateMemo<string | null>()

/** Notes the stamp a read served, as what this isolate knows of `key`. */
export function rememberStamp(key: string, stamp: PayloadStamp, seenAt: number) {
  knownStamps.remember(key, stamp, seenAt)
}

export type PayloadStoreOptions = {
  kv: KVNamespace
  now: () => number
  /** Told about an entry that could not be read. */
  onError?: (key: string, error: unknown) => void
  /** See PayloadCacheOptions (./payload-cache.ts). */
  readMemoMs: number
  /** See PayloadCacheOptions (./payload-cache.ts). */
  schemaVersion: string
  /** The KV key of the payload hashes (./payload-hashes.ts), set after every entry written. */
  hashesKey?: string
}

export function createPayloadStore(options: PayloadStoreOptions) {
  const { now, schemaVersion, readMemoMs } = options
  /** This store's writes of the hashes key, one after another (a refresh writes several entries at once). */
  let hashesWrites: Promise<unknown> = Promise.resolve()

  /** Sets `key`'s hash in the hashes key; resolves to the hash it held before (undefined: none). */
  function recordHash(key: string, hash: string): Promise<string | undefined> {
    const hashesKey = options.hashesKey
    if (!hashesKey) return Promise.resolve(hash)
    const write = hashesWrites.then(async () =>
      (await writePayloadHashes(options.kv, hashesKey, new Map([[key, hash]]), now)).get(key)
    )
    hashesWrites = write.catch(() => undefined)
    return write
  }

  /** The stored payload: as stored when this schema version wrote it, else validated (once per isolate). */
  function trustedPayload<T>(
    key: string,
    entry: CacheEntry<unknown>,
    validate: (stored: unknown) => T
  ): T {
    if (schemaVersion && entry.schema === schemaVersion) return entry.payload as T
    const known = revalidated.get(key)
    if (
      known &&
      known.hash === entry.hash &&
      known.storedAt === entry.storedAt &&
      known.schema === entry.schema
    )
      return known.payload as T
    const payload = validate(entry.payload)
    if (schemaVersion)
      revalidated.set(key, {
        hash: entry.hash,
        storedAt: entry.storedAt,
        schema: entry.schema,
        payload,
      })
    return payload
  }

  /** KV's text for `key`, or the one read less than `readMemoMs` ago. */
  async function readText(key: string): Promise<string | null> {
    if (readMemoMs <= 0) return options.kv.get(key, 'text')
    const at = now()
    const recent = recentTexts.recall(key, readMemoMs, at)
    if (recent) return recent.value
    const text = await options.kv.get(key, 'text')
    recentTexts.remember(key, text, at)
    return text
  }

  /** After a write, this isolate's reads see the new text at once. */
  function rememberWrite(key: string, text: string) {
    if (readMemoMs > 0) recentTexts.remember(key, text, now())
  }

  return {
    /** The entry under `key` with its payload trusted or validated; null when there is none or it cannot be read. */
    async read<T>(
      key: string,
      validate: (stored: unknown) => T,
      { skipPayload = false } = {}
    ): Promise<CacheEntry<T> | null> {
      try {
        const entry = parsedEntry(key, await readText(key))
        if (!entry || typeof entry.storedAt !== 'number' || typeof entry.hash !== 'string')
          return null
        const changedAt = typeof entry.changedAt === 'number' ? entry.changedAt : entry.storedAt
        return {
          storedAt: entry.storedAt,
          changedAt,
          hash: entry.hash,
          payload: skipPayload ? (undefined as T) : trustedPayload(key, entry, validate),
        }
      } catch (error) {
        options.onError?.(key, error)
        return null
      }
    },

    /** Writes `payload` under `key`, stamped with its hash and this schema version; resolves once KV has it. */
    async write<T>(
      key: string,
      payload: T,
      knownHash?: string
    ): Promise<{ stamp: PayloadStamp; outcome: RefreshOutcome }> {
      const previous = await options.kv
        .get<Partial<CacheEntry<unknown>>>(key, 'json')
        .catch(() => null)
      const hash = knownHash ?? (await hashOfPayload(payload))
      const contentChanged = previous?.hash !== hash
      const changedAt =
        !contentChanged && typeof previous?.changedAt === 'number' ? previous.changedAt : now()
      const entry: CacheEntry<T> = {
        storedAt: now(),
        changedAt,
        hash,
        schema: schemaVersion,
        payload,
      }
      const text = JSON.stringify(entry)
      await options.kv.put(key, text, { expirationTtl: RETAIN_SECONDS })
      rememberWrite(key, text)
      const stamp = { hash, storedAt: entry.storedAt, changedAt }
      rememberStamp(key, stamp, now())
      // Pages are checked against the hashes key: another hash there (an overwrite from a writer
      // elsewhere) may have kept pages of older content in caches, so they are purged as for a change.
      const listed = await recordHash(key, hash)
      const outcome: RefreshOutcome =
        contentChanged || (listed !== undefined && listed !== hash) ? 'changed' : 'unchanged'
      return { stamp, outcome }
    },
  }
}

/** A short SHA-256 of the payload's JSON: equal payloads, equal hashes. */
export async function hashOfPayload(payload: unknown): Promise<string> {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(JSON.stringify(payload))
  )
  const base64 = btoa(String.fromCharCode(...new Uint8Array(digest).subarray(0, 12)))
  return base64.replace(/\+/g, '-').replace(/\//g, '_')
}
