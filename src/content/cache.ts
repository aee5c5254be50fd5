/**
 * The payload cache: KV entries that are fresh for `ttlSeconds`, then served stale while one
 * background refresh runs (`waitUntil`), and served stale for as long as the backend fails.
 *
 * Concurrent misses for the same key in one isolate share one backend call. workerd forbids using
 * one request's I/O objects from another request, so only plain parsed data is shared, and every
 * waiter keeps its own deadline so a stuck call in one request cannot hang the others.
 */
import { ContentError } from './errors'

export type CacheEntry<T> = { storedAt: number; payload: T }

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
}

/** How long an entry stays in KV at all: the window in which a stale copy can still be served. */
const RETAIN_SECONDS = 30 * 24 * 60 * 60

const inFlight = new Map<string, Promise<unknown>>()

export function createPayloadCache(options: PayloadCacheOptions) {
  const now = options.now ?? Date.now
  const ttlMs = options.ttlSeconds * 1000

  function store<T>(key: string, payload: T): Promise<void> {
    const entry: CacheEntry<T> = { storedAt: now(), payload }
    return options.kv.put(key, JSON.stringify(entry), { expirationTtl: RETAIN_SECONDS })
  }

  /** Starts (or joins) the one backend call for `key`, storing its result in KV on success. */
  function loadShared<T>(key: string, load: () => Promise<T>): Promise<T> {
    const running = inFlight.get(key) as Promise<T> | undefined
    if (running) return withDeadline(running, options.deadlineMs)
    const call = (async () => {
      try {
        const payload = await load()
        options.waitUntil(store(key, payload).catch((error) => options.onError?.(key, error)))
        return payload
      } finally {
        inFlight.delete(key)
      }
    })()
    inFlight.set(key, call)
    options.waitUntil(call.catch(() => undefined))
    return call
  }

  async function readEntry<T>(key: string, validate: (stored: unknown) => T): Promise<CacheEntry<T> | null> {
    try {
      const entry = await options.kv.get<CacheEntry<unknown>>(key, 'json')
      if (!entry || typeof entry.storedAt !== 'number') return null
      return { storedAt: entry.storedAt, payload: validate(entry.payload) }
    } catch (error) {
      options.onError?.(key, error)
      return null
    }
  }

  return {
    /**
     * The payload for `key`: fresh from KV, stale from KV (refreshing it), or loaded now.
     * `validate` re-checks a stored payload (written by an older release, say); one that fails it
     * counts as a miss.
     */
    async read<T>(key: string, load: () => Promise<T>, validate: (stored: unknown) => T): Promise<T> {
      const entry = await readEntry<T>(key, validate)
      if (!entry) {
        try {
          return await loadShared(key, load)
        } catch (error) {
          options.onError?.(key, error)
          throw error
        }
      }
      if (now() - entry.storedAt >= ttlMs) {
        options.waitUntil(loadShared(key, load).catch((error) => options.onError?.(key, error)))
      }
      return entry.payload
    },
  }
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
