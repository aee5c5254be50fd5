/**
 * The payload cache's freshness policy, under the contract of docs/decisions/0004-content-freshness.md;
 * the KV entries and what an isolate remembers of them are ./payload-store.ts.
 *
 * - One writer per key: the scheduled refresh (src/freshness/refresh.ts) rewrites entries before
 *   they reach `ttlSeconds` (CONTENT_TTL). Request handlers only read, except to fill a key that
 *   does not exist yet, and, where no scheduled refresh runs (`refreshesOnRequest`, as under
 *   `wrangler dev`), to refresh an entry aged past the TTL in the background, so the next visit has
 *   the current content.
 * - Stale-if-error: nothing is written when the backend fails, so the last good entry stays
 *   (for RETAIN_SECONDS).
 *
 * Concurrent loads of one key in one isolate share one backend call. workerd forbids using one
 * request's I/O objects from another request, so only plain parsed data is shared, and every
 * waiter keeps its own deadline so a stuck call in one request cannot hang the others.
 */
import type { Bindings } from '../env'
import { ContentError } from '../content/errors'
import type { PayloadHashes } from './payload-hashes'
import {
  createPayloadStore,
  hashOfPayload,
  rememberStamp,
  type PayloadStamp,
  type RefreshOutcome,
} from './payload-store'

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
   * again (default 0: every read goes to KV).
   */
  readMemoMs?: number
  /**
   * The version of the schemas that validated what `load` returns, stored in each entry: an entry of
   * this version is used as stored, one of any other is validated again. Default: '' (every read
   * validates, as when no version is known).
   */
  schemaVersion?: string
  /** The KV key of the payload hashes, which every write updates (./payload-hashes.ts). */
  hashesKey?: string
  /**
   * The payload hashes this request read (the page cache reads them beside the Cache API), or
   * undefined when it read none. A key they do not list is loaded from the backend as soon as they
   * arrive, without waiting for KV's answer.
   */
  knownHashes?: () => Promise<PayloadHashes | null | undefined> | undefined
}

/** CONTENT_TTL in seconds, after which an entry is refreshed; unset or unreadable: 300. */
export function contentTtlSeconds(env: Pick<Bindings, 'CONTENT_TTL'>): number {
  const value = env.CONTENT_TTL
  const seconds = Number(value)
  return Number.isFinite(seconds) && seconds >= 0 && value !== '' && value !== undefined
    ? seconds
    : DEFAULT_TTL_SECONDS
}
const DEFAULT_TTL_SECONDS = 300

/** A backend call under way in this isolate: its payload and hash, then its entry in KV. */
type Loading<T> = {
  loaded: Promise<{ payload: T; hash: string }>
  stored: Promise<{ stamp: PayloadStamp; outcome: RefreshOutcome }>
}
const inFlight = new Map<string, Loading<unknown>>()

export function createPayloadCache(options: PayloadCacheOptions) {
  const now = options.now ?? Date.now
  const ttlMs = options.ttlSeconds * 1000
  const schemaVersion = options.schemaVersion ?? ''
  const readMemoMs = options.readMemoMs ?? 0

  const store = createPayloadStore({
    kv: options.kv,
    now,
    onError: options.onError,
    readMemoMs,
    schemaVersion,
    hashesKey: options.hashesKey,
  })

  /**
   * Starts (or joins) this isolate's one backend call for `key`: `loaded` settles with the payload
   * and its hash, `stored` once KV has the entry. A joiner waits at most `deadlineMs` for either.
   */
  function loadShared<T>(key: string, load: () => Promise<T>): Loading<T> {
    const running = inFlight.get(key) as Loading<T> | undefined
    if (running)
      return {
        get loaded() {
          return withDeadline(running.loaded, options.deadlineMs)
        },
        get stored() {
          return withDeadline(running.stored, options.deadlineMs)
        },
      }
    const loaded = load().then(async (payload) => ({ payload, hash: await hashOfPayload(payload) }))
    const stored = loaded.then(({ payload, hash }) => store.write(key, payload, hash))
    const call = { loaded, stored }
    inFlight.set(key, call)
    options.waitUntil(stored.finally(() => inFlight.delete(key)).catch(() => undefined))
    return call
  }

  /**
   * A request-side load: resolves with the payload as soon as the backend answered; the entry is
   * written after that, in the background, and a changed payload is reported then, so that the
   * pages built from it can be purged.
   */
  async function fill<T>(key: string, load: () => Promise<T>) {
    const loading = loadShared(key, load)
    const { payload, hash } = await loading.loaded
    options.waitUntil(
      loading.stored.then(
        ({ outcome }) => outcome === 'changed' && options.onChanged?.(key),
        (error: unknown) => options.onError?.(key, error)
      )
    )
    return { payload, stamp: { hash, storedAt: now() } }
  }

  /**
   * Resolves to null once the hashes the request read say KV has no entry for `key`; never
   * otherwise (unknown hashes, or hashes that list it).
   */
  function unlisted(key: string): Promise<null> {
    const hashes = options.knownHashes?.()
    if (!hashes) return new Promise(() => {})
    return hashes.then(
      (known) => (known === undefined || known?.has(key) ? new Promise<null>(() => {}) : null),
      () => new Promise<null>(() => {})
    )
  }

  return {
    /**
     * The payload for `key`: from KV, or loaded now when KV has none. KV is read at once, beside
     * the payload hashes (one trip that can leave the location, docs/decisions/0041); when the
     * hashes say first that KV has none, the backend is asked without waiting for KV, whose copy
     * is used only if the backend fails. An entry aged past the TTL is served as
     * it is, and refreshed in the background only where `refreshesOnRequest` allows. `validate`
     * re-checks a stored payload written by another schema version (an older release); one that
     * fails it counts as a miss. An entry of the current version is not checked again.
     */
    async read<T>(
      key: string,
      load: () => Promise<T>,
      validate: (stored: unknown) => T
    ): Promise<T> {
      const stored = store.read<T>(key, validate)
      let entry = await Promise.race([stored, unlisted(key)])
      if (!entry) {
        try {
          const loaded = await fill(key, load)
          options.onRead?.(key, loaded.stamp)
          return loaded.payload
        } catch (error) {
          options.onError?.(key, error)
          // The hashes may lag behind KV (docs/decisions/0027): its copy is better than an error.
          entry = await stored
          if (!entry) throw error
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
      return (await loadShared(key, load).stored).outcome
    },

    /** The hash and times of the entry under `key`, or null when there is none. */
    async stampOf(key: string): Promise<PayloadStamp | null> {
      // Only the stamp: the payload is neither validated nor remembered.
      const entry = await store.read(key, () => undefined, { skipPayload: true })
      return entry && { hash: entry.hash, storedAt: entry.storedAt, changedAt: entry.changedAt }
    },
  }
}

export type PayloadCache = ReturnType<typeof createPayloadCache>

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new ContentError('timeout', `shared backend call did not settle within ${ms} ms`)),
      ms
    )
  })
  return Promise.race([promise, deadline]).finally(() => {
    if (timer !== undefined) clearTimeout(timer)
  })
}
