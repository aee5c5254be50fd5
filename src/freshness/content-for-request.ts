/**
 * The content client for one request: bindings, waitUntil and error logging from the Context, and
 * a record of every payload the page was built from (`c.var.payloads`), which the page cache turns
 * into Cache-Tag and ETag. A request that another part of the site answers with content of its own
 * gets that client instead: a preview request, every payload from the backend now, nothing cached
 * (src/preview/preview-content.ts, registered in src/index.ts).
 */
import type { Context } from 'hono'
import type { AppEnv, PayloadRead } from '../env'
import { pagePurgerFor } from './purge'
import { reportError } from '../observability'
import { createContentClient, type ContentClient } from './content-client'
import { scheduledRefreshIsRunning } from './refresh'

export type { PayloadRead }

/** Clients that answer some requests' content instead of the cached one; undefined: not this request. */
export const otherContentFor: ((c: Context<AppEnv>) => ContentClient | undefined)[] = []

export function contentFor(c: Context<AppEnv>): ContentClient {
  for (const other of otherContentFor) {
    const client = other(c)
    if (client) return client
  }
  const timeout = Number(c.env.API_TIMEOUT_MS)
  return createContentClient({
    env: c.env,
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    timeoutMs: timeout > 0 ? timeout : undefined,
    onError: (error, { key }) => {
      console.warn(`content: ${key}: ${String(error)}`)
      reportError(c, error, 'backend', { backend_key: key })
    },
    refreshesOnRequest: async () => !(await scheduledRefreshIsRunning(c.env.CONTENT_CACHE)),
    onRead: (tag, read) => payloadsReadBy(c).set(tag, read),
    knownHashes: () => c.get('payloadHashes'),
    onChanged: (tag) => {
      const purger = pagePurgerFor(c.executionCtx as { cache?: CacheContext })
      c.executionCtx.waitUntil(
        purger
          .purgeTags([tag])
          .catch((error: unknown) => console.warn(`content: purge ${tag}: ${String(error)}`))
      )
    },
  })
}

/** The payloads this request's page was rendered from, by Cache-Tag. */
export function payloadsReadBy(c: Context<AppEnv>): Map<string, PayloadRead> {
  let reads = c.get('payloads')
  if (!reads) {
    reads = new Map()
    c.set('payloads', reads)
  }
  return reads
}
