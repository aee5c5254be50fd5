/**
 * The client entry, small and free of React. It finds the island markers the server rendered
 * (src/views/island.tsx) and arms each to hydrate on the first of its triggers: a visitor's intent
 * to use it, a scroll, or coming on screen (client/islands/registry.ts, client/triggers.ts). A page
 * that is only read never evaluates React (docs/decisions/0021-islands-hydrate-on-intent.md). Once
 * the page has loaded and the main thread is idle, it prefetches the hydration runtime (the files
 * its own script tag names in `data-hydration-runtime`, src/views/assets.tsx) at the browser's
 * lowest priority, so the first tap waits for no download and nothing competes with the page's
 * own images.
 * Before arming the islands it decides whether to show the language offer (./language-offer.ts):
 * no request, no React, so it costs the first load nothing but its own few lines.
 * Each island brings its own stylesheet, which is only ever for what it adds
 * (docs/decisions/0001-client-islands.md).
 */
import { islands, type Island, type IslandName } from './islands/registry'
import { offerPreferredLanguage } from './language-offer'
import { reportUnlessLeaving } from './load-failures'
import { layOutWhilePrerendering } from './prerender-layout'
import { startTelemetryWhenIdle, withReporter } from './telemetry/schedule'
import { armIsland } from './triggers'
import { afterLoadWhenIdle, whenActivated } from './when-idle'

/** Spec section 9: a script chunk that has not loaded after this long is a chunk-load failure. */
const CHUNK_TIMEOUT_MS = 120_000
/** At the latest, the hydration runtime is prefetched this long after the load event, idle or not. */
const PREFETCH_TIMEOUT_MS = 3000

function isIslandName(name: string | undefined): name is IslandName {
  return name !== undefined && Object.prototype.hasOwnProperty.call(islands, name)
}

/** The props the server wrote into the <script type="application/json"> right after the marker. */
function readProps(marker: HTMLElement): Record<string, unknown> {
  const script = marker.nextElementSibling
  if (!(script instanceof HTMLScriptElement) || !script.hasAttribute('data-island-props')) return {}
  return JSON.parse(script.textContent || '{}') as Record<string, unknown>
}

function loadChunk<T>(name: string, load: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`timed out after ${CHUNK_TIMEOUT_MS} ms`)),
      CHUNK_TIMEOUT_MS
    )
    load()
      .then(resolve, reject)
      .finally(() => clearTimeout(timer))
  }).catch((error: unknown) => {
    throw new Error(`chunk-load failure: island "${name}"`, { cause: error })
  })
}

const stylesheets = new Map<string, Promise<void>>()

/** Adds <link rel="stylesheet" href> to the head once; settles when it has loaded. */
function loadStylesheet(name: string, href: string): Promise<void> {
  let loaded = stylesheets.get(href)
  if (!loaded) {
    loaded = new Promise<void>((resolve, reject) => {
      const link = document.createElement('link')
      link.rel = 'stylesheet'
      link.href = href
      link.addEventListener('load', () => resolve(), { once: true })
      link.addEventListener(
        'error',
        () => reject(new Error(`chunk-load failure: island "${name}": stylesheet ${href}`)),
        { once: true }
      )
      document.head.append(link)
    })
    stylesheets.set(href, loaded)
  }
  return loaded
}

async function hydrateMarker(marker: HTMLElement): Promise<void> {
  const name = marker.dataset.island
  if (!isIslandName(name)) throw new Error(`unknown island "${name}"`)
  const island: Island = islands[name]
  const styles = (marker.dataset.islandCss ?? '').split(' ').filter(Boolean)
  const [{ hydrateIsland }, Component] = await Promise.all([
    loadChunk(name, () => import('./hydrate')),
    loadChunk(name, island.load),
    ...styles.map((href) => loadStylesheet(name, href)),
  ])
  await hydrateIsland(
    marker,
    name,
    Component as Parameters<typeof hydrateIsland>[2],
    readProps(marker)
  )
}

function armIslands(): void {
  for (const marker of document.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = marker.dataset.island
    const hydrate = () =>
      hydrateMarker(marker).catch((error: unknown) => {
        reportUnlessLeaving(() => {
          console.error(error)
          withReporter((reporter) => reporter.reportCaughtError(error))
        })
        throw error
      })
    if (isIslandName(name)) armIsland(marker, islands[name].hydrate, hydrate)
    else hydrate().catch(() => undefined)
  }
}

/** Puts the hydration runtime in the HTTP cache without evaluating it. */
function prefetchHydrationRuntime(): void {
  const entry = document.querySelector<HTMLScriptElement>('script[data-hydration-runtime]')
  for (const href of entry?.dataset.hydrationRuntime?.split(' ').filter(Boolean) ?? []) {
    const link = document.createElement('link')
    link.rel = 'prefetch'
    link.href = href
    link.crossOrigin = 'anonymous'
    document.head.append(link)
  }
}

// Synchronously, before the islands are armed: by the load event the offer has been decided.
offerPreferredLanguage()
// On a prerendered page, once the visitor opens it: nothing hydrates in a page never shown.
whenActivated(armIslands)
layOutWhilePrerendering()
afterLoadWhenIdle(prefetchHydrationRuntime, PREFETCH_TIMEOUT_MS)

// Web vitals and error reports: a chunk of its own, loaded after the load event when idle (or at
// once, when an island fails: spec section 8 wants a chunk-load failure reported).
startTelemetryWhenIdle()
