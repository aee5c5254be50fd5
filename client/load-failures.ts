/**
 * A chunk that failed to load, told apart from one whose load the browser cut short because the
 * visitor is leaving. Firefox aborts a page's pending loads as soon as a navigation starts, before
 * `pagehide`, and the aborted dynamic import rejects exactly as a failed one does, so the two
 * cannot be told apart when it happens. Only what follows tells them apart: a page being left is
 * gone (or frozen in the back/forward cache) soon after, one with a real failure stays. So a
 * failure is logged and reported once the page has stayed `STAY_MS` after it, and dropped if
 * `pagehide` came first. (No `beforeunload` listener: in Firefox it keeps the page out of the
 * back/forward cache.)
 */

/** Longer than the next page's response takes to start arriving on a slow phone connection. */
const STAY_MS = 3000

/** Counts the times the page was left: a failure from before the last time is not reported. */
let departures = 0
addEventListener('pagehide', () => {
  departures += 1
})

/** Runs `report` (log and report a load failure) once the page has stayed, never if the visitor left it meanwhile. */
export function reportUnlessLeaving(report: () => void): void {
  const at = departures
  setTimeout(() => {
    if (departures === at) report()
  }, STAY_MS)
}
