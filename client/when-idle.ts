/**
 * Runs work at no cost to the page's first paint: after the load event, once the page is shown
 * and the main thread is idle (or after `timeoutMs` at the latest). Island hydration (./main.ts)
 * and the telemetry reporter (./telemetry/schedule.ts) both start this way.
 *
 * "Shown": a page the browser prerenders from the site's speculation rules loads in the
 * background, and may never be shown. Until it is activated (`document.prerendering` turns false,
 * `prerenderingchange`), nothing starts: no island loads, no vitals are observed and no beacon is
 * sent, so a prerender the visitor never opens costs nothing but its HTML. A page that is
 * activated hydrates then, as a visited one does after its load event.
 */
export function afterLoadWhenIdle(run: () => void, timeoutMs: number): void {
  const whenIdle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: timeoutMs })
    else setTimeout(run, 1)
  }
  void afterLoad().then(() => whenActivated(whenIdle))
}

/** Settles once the load event has fired (at once if it has). */
export function afterLoad(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve()
  return new Promise((resolve) => addEventListener('load', () => resolve(), { once: true }))
}

/**
 * Runs `run` at once on a page being shown; on a prerendered page, once it is activated and has
 * painted its first frame, so that no script delays the paint the visitor clicked for.
 */
export function whenActivated(run: () => void): void {
  if (!(document as PrerenderingDocument).prerendering) return run()
  document.addEventListener(
    'prerenderingchange',
    () => requestAnimationFrame(() => setTimeout(run, 0)),
    { once: true }
  )
}

/** `document.prerendering` (Speculation Rules); not in TypeScript's DOM types yet. */
export type PrerenderingDocument = Document & { prerendering?: boolean }
