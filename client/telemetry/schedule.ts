/**
 * Starts the telemetry reporter (./reporter.ts) at no cost to the visitor: it is its own chunk,
 * imported only after the load event, once the main thread is idle. web-vitals reads buffered
 * performance entries, so LCP, CLS and TTFB measured before then are still reported.
 */
import { afterLoadWhenIdle } from '../when-idle'

const IDLE_TIMEOUT_MS = 5000

export function startTelemetryWhenIdle(): void {
  afterLoadWhenIdle(() => {
    import('./reporter').then(
      (reporter) => reporter.startTelemetry(),
      (error: unknown) => console.warn('telemetry chunk failed to load', error),
    )
  }, IDLE_TIMEOUT_MS)
}
