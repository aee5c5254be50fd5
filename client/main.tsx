/**
 * The client entry: finds the island markers the server rendered (src/views/island.tsx), loads
 * only those islands and hydrates each in place. Sets <html data-client-loaded="true"> once every
 * island on the page has hydrated (or failed), the signal browser tests wait for.
 */
import { useEffect, type ComponentType, type ReactNode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { islandLoaders, type IslandName } from './islands/registry'
import { startTelemetryWhenIdle } from './telemetry/schedule'

/** Spec section 9: a script chunk that has not loaded after this long is a chunk-load failure. */
const CHUNK_TIMEOUT_MS = 120_000

function isIslandName(name: string | undefined): name is IslandName {
  return name !== undefined && Object.prototype.hasOwnProperty.call(islandLoaders, name)
}

/** The props the server wrote into the <script type="application/json"> right after the marker. */
function readProps(marker: HTMLElement): Record<string, unknown> {
  const script = marker.nextElementSibling
  if (!(script instanceof HTMLScriptElement) || !script.hasAttribute('data-island-props')) return {}
  return JSON.parse(script.textContent || '{}') as Record<string, unknown>
}

function loadChunk<T>(name: string, load: () => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${CHUNK_TIMEOUT_MS} ms`)), CHUNK_TIMEOUT_MS)
    load().then(resolve, reject).finally(() => clearTimeout(timer))
  }).catch((error: unknown) => {
    throw new Error(`chunk-load failure: island "${name}"`, { cause: error })
  }) as Promise<T>
}

/** Renders its children unchanged and reports once React has committed them. */
function Hydrated({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useEffect(onCommit, [])
  return children
}

async function hydrateIsland(marker: HTMLElement): Promise<void> {
  const name = marker.dataset.island
  if (!isIslandName(name)) throw new Error(`unknown island "${name}"`)
  const props = readProps(marker)
  const Component = (await loadChunk<unknown>(name, islandLoaders[name])) as ComponentType<Record<string, unknown>>
  await new Promise<void>((resolve) => {
    hydrateRoot(
      marker,
      <Hydrated onCommit={resolve}>
        <Component {...props} />
      </Hydrated>,
      {
        onRecoverableError(error, info) {
          console.error(`island "${name}" recovered from a hydration error`, error, info.componentStack)
        },
        onUncaughtError(error, info) {
          console.error(`island "${name}" failed to render`, error, info.componentStack)
          resolve()
        },
      },
    )
  })
}

async function hydrateIslands(): Promise<void> {
  const markers = Array.from(document.querySelectorAll<HTMLElement>('[data-island]'))
  const results = await Promise.allSettled(markers.map(hydrateIsland))
  for (const result of results) if (result.status === 'rejected') console.error(result.reason)
  document.documentElement.dataset.clientLoaded = 'true'
}

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', () => void hydrateIslands(), { once: true })
} else {
  void hydrateIslands()
}

// Web vitals and error reports: a chunk of its own, loaded after the load event when idle.
startTelemetryWhenIdle()
