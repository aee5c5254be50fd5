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
 * coming on screen from the load event on. Settles after the load event: once the island's
 * hydration has settled if a trigger had fired by then (on screen, the page already scrolled, a
 * visitor's early tap), at once otherwise. The entry's `data-client-loaded` signal waits for it.
 */
export function armIsland(
  marker: HTMLElement,
  triggers: readonly Trigger[],
  hydrate: () => Promise<void>
): Promise<void> {
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
  return afterLoad().then(() => {
    if (started) return started.then(ignore, ignore)
    const dueNow: Promise<void>[] = []
    if (triggers.includes('scroll')) {
      if (scrollY > 0) dueNow.push(start())
      else disarms.push(onFirstScroll(start))
    }
    if (triggers.includes('visible'))
      dueNow.push(onVisible(marker, start, (disarm) => disarms.push(disarm)))
    return Promise.allSettled(dueNow).then(ignore)
  })
}

const ignore = () => undefined

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
 * Observes the marker's box (the marker itself has none: `display: contents`, so its parent).
 * Settles after the first observation: once hydrated if it was on screen, at once if not; and
 * starts hydration whenever it comes on screen.
 */
function onVisible(
  marker: HTMLElement,
  start: () => Promise<void>,
  addDisarm: (disarm: () => void) => void
): Promise<void> {
  return new Promise<void>((settle) => {
    let first = true
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect()
        start().then(settle, settle)
      } else if (first) settle()
      first = false
    })
    observer.observe(marker.parentElement ?? marker)
    // Another trigger came first: this one settles with the hydration it started.
    addDisarm(() => {
      observer.disconnect()
      start().then(settle, settle)
    })
  })
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
