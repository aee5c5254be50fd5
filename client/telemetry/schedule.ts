/**
 * The entry's way to the telemetry reporter (./reporter.ts), which is a chunk of its own so that it
 * costs the visitor nothing: it starts only after the load event, once the main thread is idle
 * (web-vitals reads buffered performance entries, so LCP, CLS and TTFB measured before then are
 * still reported), or when the entry has a caught error to report.
 */
import { reportUnlessLeaving } from '../load-failures'
import { afterLoadWhenIdle } from '../when-idle'

const IDLE_TIMEOUT_MS = 5000

type Reporter = typeof import('./reporter')

export function startTelemetryWhenIdle(): void {
  afterLoadWhenIdle(() => {
    import('./reporter').then(
      (reporter) => reporter.startTelemetry(),
      (error: unknown) =>
        reportUnlessLeaving(() => console.warn('telemetry chunk failed to load', error))
    )
  }, IDLE_TIMEOUT_MS)
}

/**
 * Runs `use` with the reporter, loading its chunk now if the idle start has not yet: how the entry
 * reports an error it caught (`withReporter((reporter) => reporter.reportCaughtError(error))`).
 * Best effort: nothing happens when the chunk does not load.
 */
export function withReporter(use: (reporter: Reporter) => void): void {
  import('./reporter').then(use, () => undefined)
}
