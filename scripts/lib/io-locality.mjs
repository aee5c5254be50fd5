/**
 * Where each kind of I/O a worker makes runs: at the Cloudflare location that runs the worker, or
 * possibly beyond it. Shared by the recorder (./io-chain.ts) and the cold bench's reading of its
 * chains (scripts/bench/cold/levels.mjs).
 *
 * Local: the Cache API (the location's own cache, https://developers.cloudflare.com/workers/runtime-apis/cache/),
 * rate limiters (counted per location, https://developers.cloudflare.com/workers/runtime-apis/bindings/rate-limit/),
 * static assets (served by the location), data points (sent after the response). Everything else
 * can leave: a KV read answered by the location's copy is local, but one that misses it goes to a
 * regional tier, then a central tier and central storage
 * (https://developers.cloudflare.com/kv/concepts/how-kv-works/); writes always go to the central
 * store; the backend, queues and image transforms run elsewhere.
 */

/** @typedef {'kv-read' | 'kv-write' | 'kv-delete' | 'kv-list' | 'cache-read' | 'cache-write' | 'cache-delete' | 'backend' | 'fetch' | 'images' | 'queue' | 'analytics' | 'ratelimit' | 'assets'} IoKind */

export const LOCAL_KINDS = new Set([
  'cache-read',
  'cache-write',
  'cache-delete',
  'ratelimit',
  'assets',
  'analytics',
])

/** @param {string} kind */
export function leavesLocation(kind) {
  return !LOCAL_KINDS.has(kind)
}
