export { pageCache, PROVISIONAL_SECONDS, type PageCacheOptions } from './page-cache'
export {
  BROWSER_CACHE_CONTROL,
  EDGE_CACHE_CONTROL,
  pageCacheHeaders,
  STALE_SECONDS,
} from './cache-headers'
export { acceptsGzip, pageCacheKey, STORED_AT } from './stored-page'
