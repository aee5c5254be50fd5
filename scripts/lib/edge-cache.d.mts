import type CachePolicy from 'http-cache-semantics'

export type EdgeOutcome = 'fresh' | 'stale' | 'stale-if-error' | 'revalidated' | 'miss'

export type EdgeCache = {
  fetch(request: Request): Promise<{
    response: Response
    outcome: EdgeOutcome
    background?: Promise<unknown>
  }>
  purgeTags(tags: string[]): number
  evictIdle(idleMs: number): void
  policyFor(request: Request): CachePolicy | undefined
  readonly size: number
}

export function createEdgeCache(options: {
  origin: (request: Request) => Promise<Response>
  now?: () => number
  version?: () => string
}): EdgeCache
