/** The content client for one request: bindings, waitUntil and error logging from the Context. */
import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { reportError } from '../observability'
import { createContentClient, type ContentClient } from './client'

export { ContentError } from './errors'
export type { ContentClient } from './client'

export function contentFor(c: Context<AppEnv>): ContentClient {
  const timeout = Number(c.env.API_TIMEOUT_MS)
  return createContentClient({
    env: c.env,
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    timeoutMs: timeout > 0 ? timeout : undefined,
    onError: (error, { key }) => {
      console.warn(`content: ${key}: ${String(error)}`)
      reportError(c, error, 'backend', { backend_key: key })
    },
  })
}
