/**
 * Starts the telemetry reporter (./reporter.ts) at no cost to the visitor: it is its own chunk,
 * imported only after the load event, once the main thread is idle. web-vitals reads buffered
 * performance entries, so LCP, CLS and TTFB measured before then are still reported.
 */
const IDLE_TIMEOUT_MS = 5000

export function startTelemetryWhenIdle(): void {
  const start = () => {
    import('./reporter').then(
      (reporter) => reporter.startTelemetry(),
      (error: unknown) => console.warn('telemetry chunk failed to load', error),
    )
  }
  const whenIdle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: IDLE_TIMEOUT_MS })
    else setTimeout(start, 1)
  }
  if (document.readyState === 'complete') whenIdle()
  else addEventListener('load', whenIdle, { once: true })
}
