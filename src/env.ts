/**
 * The site worker's bindings and per-request variables, in one place.
 * Bindings mirror wrangler.toml; see the README's configuration table.
 */
import type { Lng } from './shared/languages'

export type Bindings = {
  /** Origin of the content backend, e.g. https://cms.example.am. Empty: use the CONTENT binding. */
  API_HOST: string
  /** The {product} path segment of every backend call. */
  PRODUCT: string
  /** The fixed `path` query value sent to page-meta-data. */
  META_PATH: string
  /** Seconds a cached payload is fresh; numeric string, default 300. */
  CONTENT_TTL?: string
  /** Milliseconds before a backend call times out; default 10000 (spec section 7). */
  API_TIMEOUT_MS?: string
  /** Secret sent as the Authorization header of backend calls; empty string when unset. */
  API_TOKEN?: string
  /** The bundled reference content service. */
  CONTENT: Fetcher
  /** Payload cache. */
  CONTENT_CACHE: KVNamespace
  /** Static assets from public/. */
  ASSETS: Fetcher
  /** Cloudflare Images: resizes and re-encodes content images for GET /_image (src/images/). */
  IMAGES: ImagesBinding
  /** Extra origins content images may come from (a CMS's CDN), space- or comma-separated; default ''. */
  IMAGE_ORIGINS?: string
  /** Secret: Sentry DSN for server errors and failed backend calls; unset turns reporting off. */
  SENTRY_DSN?: string
  /** The release sent to Sentry (e.g. the git commit); unset: the Workers version id. */
  RELEASE?: string
  /** Workers Analytics Engine dataset for web vitals and client errors; unbound: they are logged. */
  VITALS?: AnalyticsEngineDataset
  /** Per-client limit on contact messages forwarded to the backend (wrangler.toml `[[ratelimits]]`). */
  CONTACT_RATE_LIMITER: RateLimit
  /** Seconds a rendered page is fresh in the page cache (then stale for 10 minutes); '0' turns it off; default 60. */
  PAGE_CACHE_TTL?: string
  /** Secret: lets `npm run bench` skip the page and payload caches (X-Cache-Bypass-Token); unset disables that. */
  CACHE_BYPASS_TOKEN?: string
  /** The deployed version's id: the page cache starts empty on every deploy. */
  CF_VERSION_METADATA?: WorkerVersionMetadata
}

export type AppEnv = {
  Bindings: Bindings
  Variables: {
    /** The page language, from the path prefix only. */
    lng: Lng
    /** The request path without its language prefix: the page key for meta data. */
    pageKey: string
  }
}

// `env` from 'cloudflare:workers' (and the test pool) carries the same bindings.
declare global {
  namespace Cloudflare {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Env extends Bindings {}
  }
}
