/**
 * The React side of hydration, a chunk of its own that client/main.ts imports once there is an
 * island to hydrate: React and ReactDOM stay off the page's critical path.
 */
import { useEffect, type ComponentType, type ReactNode } from 'react'
import { hydrateRoot } from 'react-dom/client'

/** Renders its children unchanged and reports once React has committed them. */
function Hydrated({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useEffect(onCommit, [])
  return children
}

/** Hydrates the server's markup inside `marker`; settles once React has committed it, or failed. */
export function hydrateIsland(
  marker: HTMLElement,
  name: string,
  Component: ComponentType<Record<string, unknown>>,
  props: Record<string, unknown>
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    hydrateRoot(
      marker,
      <Hydrated onCommit={resolve}>
        <Component {...props} />
      </Hydrated>,
      {
        onRecoverableError(error, info) {
          console.error(
            `island "${name}" recovered from a hydration error`,
            error,
            info.componentStack
          )
        },
        onUncaughtError(error, info) {
          console.error(`island "${name}" failed to render`, error, info.componentStack)
          reject(new Error(`island "${name}" failed to render`, { cause: error }))
        },
      }
    )
  })
}
