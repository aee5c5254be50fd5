export { BYPASS_HEADER, BYPASS_TOKEN_HEADER } from './bench-bypass'
export { pageCache, PROVISIONAL_SECONDS, STALE_SECONDS, type PageCacheOptions } from './page-cache'
export { forgetRecentPages } from './recent-pages'
export { acceptsGzip, pageCacheKey, STORED_AT } from './stored-page'
