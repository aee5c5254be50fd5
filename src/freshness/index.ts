/**
 * Freshness: how the site keeps what it serves current. Payloads are read through the KV payload
 * cache (the content client), refreshed by one writer (the scheduled refresh and the publish hook),
 * and pages are cached in front of them and purged when a payload they were rendered from changes.
 * Imports run one way: the page cache, then the content client, then the payload cache, then the
 * backend transport (src/content/). Why: docs/decisions/0004-content-freshness.md, 0002-page-cache.md.
 */
export { pageCache, PROVISIONAL_SECONDS, type PageCacheOptions } from './page-cache'
export {
  BROWSER_CACHE_CONTROL,
  EDGE_CACHE_CONTROL,
  pageCacheHeaders,
  STALE_SECONDS,
} from './cache-headers'
export { acceptsGzip, pageCacheKey, STORED_AT } from './stored-page'
export {
  contentFor,
  otherContentFor,
  payloadsReadBy,
  type PayloadRead,
} from './content-for-request'
export {
  createContentClient,
  type ContentClient,
  type MessageInput,
  type SendResult,
} from './content-client'
export {
  onPayloadsChanged,
  refreshPayloads,
  runScheduledRefresh,
  type PayloadsChangedListener,
} from './refresh'
export { handleRepurgeBatch, repurgerFor } from './repurge'
export { pagePurgerFor } from './purge'
export { isolateMemo, type IsolateMemo } from './isolate-memo'
