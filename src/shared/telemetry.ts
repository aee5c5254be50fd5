/**
 * The beacons the browser sends to the worker (client/telemetry -> src/routes/telemetry.ts): their
 * shapes and limits. Plain types and numbers, no zod, so the client chunk stays tiny; the worker
 * checks every beacon against a zod schema built from the same limits.
 */

export const TELEMETRY_LIMITS = {
  /** Bytes of one beacon's body. */
  body: 4096,
  /** Characters of the page path. */
  page: 300,
  /** Metrics in one vitals beacon. */
  metrics: 8,
  /** Errors in one beacon, and per page view. */
  errors: 5,
  /** Characters of an error message, source and stack. */
  message: 300,
  source: 300,
  stack: 1500,
} as const

export const METRIC_NAMES = ['LCP', 'INP', 'CLS', 'TTFB', 'FCP'] as const
export const METRIC_RATINGS = ['good', 'needs-improvement', 'poor'] as const

/** The visitor's kind of device, from what the browser says of itself (client/telemetry/device.ts). */
export const DEVICE_CLASSES = ['phone', 'tablet', 'desktop'] as const
export type DeviceClass = (typeof DEVICE_CLASSES)[number]

/**
 * What answered the page (decision 0030), from its Server-Timing header
 * (src/middleware/server-timing, read by client/telemetry/served-by.ts):
 * - edge: Cloudflare's cache in front of the worker, which replays the headers of the answer it stored;
 * - hit: the worker, from its page cache (src/freshness/);
 * - miss: the worker rendered it, its page cache having no current copy;
 * - uncached: the worker rendered a page its page cache does not keep (an error page, or
 *   PAGE_CACHE_TTL=0);
 * - unknown: the browser exposed no server timing.
 */
export const CACHE_LEVELS = ['edge', 'hit', 'miss', 'uncached', 'unknown'] as const
export type CacheLevel = (typeof CACHE_LEVELS)[number]

/** The Server-Timing metric names the worker sends on pages. */
export const SERVER_TIMING = {
  /** `cache;desc=<level>`, with `dur` on a hit: the time to answer from the page cache. */
  cache: 'cache',
  /** `render;dur=<ms>`: the time the worker took to have the page's headers, data loading included. */
  render: 'render',
} as const

/** The meta tag that carries the deployed version's id in every page (src/views/document.tsx). */
export const DEPLOYMENT_VERSION_META = 'deployment-version'

/**
 * A deployed version's id as the HTML carries it (`<meta name="deployment-version">`): Cloudflare's version ids
 * are UUIDs; anything else a beacon claims is not stored.
 */
export const VERSION_ID = /^[A-Za-z0-9-]{1,64}$/

export type VitalMetric = {
  name: (typeof METRIC_NAMES)[number]
  /** Milliseconds; unitless for CLS. */
  value: number
  rating: (typeof METRIC_RATINGS)[number]
  /** web-vitals' id of this metric instance, to count each page view once. */
  id: string
  /** 'navigate', 'reload', 'back-forward', 'back-forward-cache', 'prerender', 'restore', ... */
  navigationType?: string
}

/** How the page was served, as its Server-Timing said. */
export type ServedBy = {
  cache: CacheLevel
  /** Milliseconds the worker took for its answer's headers (render, or page-cache lookup on a hit). */
  ms?: number
}

export type VitalsBeacon = {
  /** location.pathname of the page that measured them. */
  page: string
  metrics: VitalMetric[]
  device?: DeviceClass
  /** The version that rendered the page (`<meta name="deployment-version">`). */
  version?: string
  served?: ServedBy
}

export type ClientError = {
  kind: 'error' | 'unhandledrejection'
  message: string
  /** The script URL of a window error. */
  source?: string
  line?: number
  column?: number
  stack?: string
}

export type ClientErrorsBeacon = {
  page: string
  errors: ClientError[]
}
