/**
 * The client entry, small and free of React. It finds the island markers the server rendered
 * (src/views/island.tsx) and hydrates them off the page's critical path: after the load event,
 * once the main thread is idle, so the first paint and the largest one wait for no script. An
 * island the registry marks `hydrate: 'visible'` (the carousel) loads only when it nears the
 * viewport. Each island brings its own stylesheet, which is only ever for what it adds
 * (docs/decisions/0001-client-islands.md).
 *
 * Signals for browser tests: each hydrated marker gets `data-hydrated="true"`, and <html> gets
 * `data-client-loaded="true"` once every island due at idle has hydrated (or failed).
 */
import { islands, type Island, type IslandName } from './islands/registry'
import { reportUnlessLeaving } from './load-failures'
import { startTelemetryWhenIdle, withReporter } from './telemetry/schedule'
import { afterLoadWhenIdle } from './when-idle'

/** Spec section 9: a script chunk that has not loaded after this long is a chunk-load failure. */
const CHUNK_TIMEOUT_MS = 120_000
/** At the latest, islands start hydrating this long after the load event, idle or not. */
const IDLE_TIMEOUT_MS = 2000
/** How near the viewport a `hydrate: 'visible'` island starts loading: half a screen ahead. */
const VISIBLE_MARGIN = '50% 0px'

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
  marker.dataset.hydrated = 'true'
}

/** Runs `run` once the marker's surroundings come near the viewport. */
function whenNearViewport(marker: HTMLElement, run: () => void): void {
  // The marker itself has no box (display: contents), so its parent is what scrolls into view.
  const target = marker.parentElement ?? marker
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return
      observer.disconnect()
      run()
    },
    { rootMargin: VISIBLE_MARGIN }
  )
  observer.observe(target)
}

function hydrateIslands(): void {
  const dueNow: Promise<void>[] = []
  for (const marker of document.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = marker.dataset.island
    const island: Island | undefined = isIslandName(name) ? islands[name] : undefined
    const hydrate = () =>
      hydrateMarker(marker).catch((error: unknown) =>
        reportUnlessLeaving(() => {
          console.error(error)
          withReporter((reporter) => reporter.reportCaughtError(error))
        })
      )
    if (island?.hydrate === 'visible') whenNearViewport(marker, () => void hydrate())
    else dueNow.push(hydrate())
  }
  void Promise.allSettled(dueNow).then(() => {
    document.documentElement.dataset.clientLoaded = 'true'
  })
}

afterLoadWhenIdle(hydrateIslands, IDLE_TIMEOUT_MS)

// Web vitals and error reports: a chunk of its own, loaded after the load event when idle (or at
// once, when an island fails: spec section 8 wants a chunk-load failure reported).
startTelemetryWhenIdle()
