/**
 * What this isolate remembers of KV keys: each value with when it was read (or written), used
 * instead of another KV read while it is younger than the caller's max age. The payload entries,
 * the payload hashes, the scheduled refresh's heartbeat and the placeholder index are each
 * remembered so.
 *
 * Only plain data is remembered (workerd forbids sharing one request's I/O objects with another).
 * A memo holds one value per key, and starts over once it holds MAX_KEYS: far more than the site's
 * keys, so it never grows past a bound whatever keys it is given. A clock that went back since the
 * value was read makes it unknown rather than kept for ever.
 */
export type Remembered<T> = { value: T; at: number }

/** Keys a memo holds before it starts over. */
export const MAX_KEYS = 1_000

export type IsolateMemo<T> = {
  /** The value remembered for `key`, if it was read less than `maxAgeMs` before `now`. */
  recall(key: string, maxAgeMs: number, now: number): Remembered<T> | undefined
  /** Remembers `value` as what `key` held at `at`. */
  remember(key: string, value: T, at: number): void
}

export function isolateMemo<T>(): IsolateMemo<T> {
  const entries = new Map<string, Remembered<T>>()
  return {
    recall(key, maxAgeMs, now) {
      const entry = entries.get(key)
      return entry && now - entry.at < maxAgeMs && now >= entry.at ? entry : undefined
    },
    remember(key, value, at) {
      if (entries.size >= MAX_KEYS && !entries.has(key)) entries.clear()
      entries.set(key, { value, at })
    },
  }
}
