export { BYPASS_HEADER, BYPASS_TOKEN_HEADER } from './bench-bypass'
export { pageCache, PROVISIONAL_SECONDS, type PageCacheOptions } from './page-cache'
export {
  BROWSER_CACHE_CONTROL,
  EDGE_CACHE_CONTROL,
  pageCacheHeaders,
  STALE_SECONDS,
} from './cache-headers'
export { forgetRecentPages } from './recent-pages'
export { acceptsGzip, pageCacheKey, STORED_AT } from './stored-page'
