/**
 * The purge seam: how pages rendered from changed payloads stop being served.
 *
 * In production Workers Cache (`[cache] enabled = true`) holds pages in front of the worker, network
 * wide; `ctx.cache.purge({ tags })` drops every copy tagged with a changed payload
 * (https://developers.cloudflare.com/workers/cache/purge/). Under `wrangler dev` and in the test pool
 * `ctx.cache` is undefined: there the in-worker page cache is the only page cache, and it checks the
 * payload hashes of every stored page before serving it (page-cache.ts), so it needs no purge.
 */

/** Drops every cached page that carries one of the tags. */
export type PagePurger = {
  readonly kind: 'workers-cache' | 'local'
  purgeTags(tags: readonly string[]): Promise<void>
}

/** Tags per purge call, as Cloudflare's purge API takes them. */
const TAGS_PER_CALL = 30

/** The purger for this invocation: Workers Cache where the runtime offers it, else the local one. */
export function pagePurgerFor(ctx: { cache?: CacheContext }): PagePurger {
  return ctx.cache ? workersCachePurger(ctx.cache) : localPurger()
}

export function workersCachePurger(cache: CacheContext): PagePurger {
  return {
    kind: 'workers-cache',
    async purgeTags(tags) {
      for (let start = 0; start < tags.length; start += TAGS_PER_CALL) {
        const result = await cache.purge({ tags: tags.slice(start, start + TAGS_PER_CALL) })
        if (!result.success) {
          throw new Error(
            `Workers Cache purge failed: ${result.errors.map((error) => `${error.code} ${error.message}`).join('; ')}`
          )
        }
      }
    },
  }
}

/** Nothing to drop: the in-worker page cache validates each stored page by its payload hashes. */
export function localPurger(): PagePurger {
  return { kind: 'local', purgeTags: async () => undefined }
}
