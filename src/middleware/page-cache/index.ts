export { pageCache, STALE_SECONDS, type PageCacheOptions } from './page-cache'
export { pageCacheKey, STORED_AT } from './stored-page'
export { BYPASS_HEADER, BYPASS_TOKEN_HEADER } from './bench-bypass'
