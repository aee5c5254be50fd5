/**
 * When an island hydrates: on the first of its triggers (client/islands/registry.ts), never merely
 * because the page loaded (docs/decisions/0021-islands-hydrate-on-intent.md).
 */
import type { Trigger } from './islands/registry'
import { afterLoad } from './when-idle'

/** Events that announce a visitor is about to use an island: pointer over it, a press, focus. */
const INTENT_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const

/**
 * Arms `marker` to call `hydrate` once, on the first of `triggers`: intent at once, a scroll or
 * coming on screen from the load event on.
 */
export function armIsland(
  marker: HTMLElement,
  triggers: readonly Trigger[],
  hydrate: () => Promise<void>
): void {
  const disarms: (() => void)[] = []
  const state: HydrationState = { settled: false }
  let started: Promise<void> | undefined
  const start = (): Promise<void> => {
    if (!started) {
      started = hydrate().finally(() => {
        state.settled = true
      })
      for (const disarm of disarms.splice(0)) disarm()
    }
    return started
  }
  if (triggers.includes('interaction')) {
    disarms.push(onIntent(marker, start))
    holdEarlyClicks(marker, start, state)
  }
  // The others wait for the load event: the page's own images and fonts come first.
  void afterLoad().then(() => {
    if (started) return
    if (triggers.includes('scroll')) {
      if (scrollY > 0) starter(start)()
      else disarms.push(onFirstScroll(start))
    }
    if (triggers.includes('visible') && !started) disarms.push(onVisible(marker, start))
  })
}

type HydrationState = { settled: boolean }

/** Starts hydration from an event: its failure is reported by the caller's `hydrate`. */
function starter(start: () => Promise<void>): () => void {
  return () => void start().catch(() => undefined)
}

function onIntent(marker: HTMLElement, start: () => Promise<void>): () => void {
  const begin = starter(start)
  for (const type of INTENT_EVENTS) marker.addEventListener(type, begin, { passive: true })
  return () => {
    for (const type of INTENT_EVENTS) marker.removeEventListener(type, begin)
  }
}

function onFirstScroll(start: () => Promise<void>): () => void {
  const begin = starter(start)
  addEventListener('scroll', begin, { passive: true, once: true })
  return () => removeEventListener('scroll', begin)
}

/**
 * Starts hydration once the marker's box (the marker itself has none: `display: contents`, so its
 * parent) is on screen.
 */
function onVisible(marker: HTMLElement, start: () => Promise<void>): () => void {
  const begin = starter(start)
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) begin()
  })
  observer.observe(marker.parentElement ?? marker)
  return () => observer.disconnect()
}

/**
 * A click on one of the island's buttons before its hydration has settled (a tap is faster than
 * React on a slow phone) is held, starts hydration, and is given again once it has settled: to the
 * hydrated island, or, if hydration failed, to the page as it is, so that a form's submit button
 * still submits the form.
 */
function holdEarlyClicks(
  marker: HTMLElement,
  start: () => Promise<void>,
  state: HydrationState
): void {
  const hold = (event: MouseEvent) => {
    if (state.settled) return marker.removeEventListener('click', hold, true)
    const button = event.target instanceof Element ? event.target.closest('button') : null
    if (!button || !marker.contains(button)) return
    event.preventDefault()
    event.stopImmediatePropagation()
    const giveAgain = () => {
      if (button.isConnected) button.click()
    }
    start().then(giveAgain, giveAgain)
  }
  marker.addEventListener('click', hold, true)
}
