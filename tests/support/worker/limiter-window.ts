/**
 * The local rate limiter (miniflare's, behind every `[[ratelimits]]` binding in the tests) counts
 * in windows aligned to the wall clock: every key starts again at each multiple of the period.
 * A burst of calls that straddles such a rollover is counted in two windows, so its 429s come
 * late or never, on a busy machine more often than on a quiet one.
 */

/** Runs `burst` until one run of it falls within one window of `periodSeconds` (at most 3 runs). */
export async function inOneLimiterWindow<T>(
  periodSeconds: number,
  burst: (attempt: number) => Promise<T>
): Promise<T> {
  const windowOf = (ms: number) => Math.floor(ms / (periodSeconds * 1000))
  for (let attempt = 1; ; attempt += 1) {
    const started = windowOf(Date.now())
    const result = await burst(attempt)
    if (windowOf(Date.now()) === started || attempt === 3) return result
  }
}
