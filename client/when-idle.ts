/**
 * Runs work at no cost to the page's first paint: after the load event, once the main thread is
 * idle (or after `timeoutMs` at the latest). Island hydration (./main.ts) and the telemetry
 * reporter (./telemetry/schedule.ts) both start this way.
 */
export function afterLoadWhenIdle(run: () => void, timeoutMs: number): void {
  const whenIdle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: timeoutMs })
    else setTimeout(run, 1)
  }
  if (document.readyState === 'complete') whenIdle()
  else addEventListener('load', whenIdle, { once: true })
}
