/**
 * Cloudflare's list prices and the latencies the visit model (./visit-model.mjs) multiplies the
 * measured round trips by, each with where it comes from: one place to update when Cloudflare
 * changes a price or publishes a figure. Each latency's `basis` says whether it is documented
 * (with its source) or assumed (Cloudflare publishes no figure); the model prints it beside the
 * figure, and the worker's CPU beside them is measured by the bench.
 */

/** Prices of the Workers Paid plan, in US dollars. */
export const PRICES = {
  workersPlan: {
    monthly: 5,
    source: 'https://developers.cloudflare.com/workers/platform/pricing/',
  },
  workersRequests: {
    included: 10_000_000,
    perMillion: 0.3,
    source: 'https://developers.cloudflare.com/workers/platform/pricing/',
  },
  workersCpuMs: {
    included: 30_000_000,
    perMillion: 0.02,
    source: 'https://developers.cloudflare.com/workers/platform/pricing/',
  },
  kvReads: {
    included: 10_000_000,
    perMillion: 0.5,
    source: 'https://developers.cloudflare.com/kv/platform/pricing/',
  },
  kvWrites: {
    included: 1_000_000,
    perMillion: 5,
    source: 'https://developers.cloudflare.com/kv/platform/pricing/',
  },
  imagesTransformations: {
    // Unique transformations a month; the first 5,000 included.
    included: 5_000,
    perMillion: 500,
    source: 'https://developers.cloudflare.com/images/pricing/',
  },
  analyticsDataPoints: {
    included: 10_000_000,
    perMillion: 0.25,
    source: 'https://developers.cloudflare.com/analytics/analytics-engine/pricing/',
  },
  queueOperations: {
    // A message delivered once is a write, a read and a delete: 3 operations (per 64 KB).
    included: 1_000_000,
    perMillion: 0.4,
    operationsPerMessage: 3,
    source: 'https://developers.cloudflare.com/queues/platform/pricing/',
  },
}

/**
 * Milliseconds of one round trip of each kind, from the Cloudflare location in Yerevan. Cloudflare
 * documents the paths (a KV read that misses the location's cache goes to a regional tier, then a
 * central tier, then the central store) but, except where marked, no figures.
 */
export const LATENCIES = {
  visitor: {
    ms: 10,
    basis: 'assumed',
    note: 'a visitor in Armenia to the Cloudflare location in Yerevan, one round trip once connected (assumed)',
    source: 'https://www.cloudflare.com/network/',
  },
  edgeCache: {
    ms: 1,
    basis: 'assumed',
    note: 'Workers Cache answering at the location, the worker not run (assumed)',
    source: 'https://developers.cloudflare.com/workers/cache/',
  },
  cacheApi: {
    ms: 2,
    basis: 'assumed',
    note: "the Cache API (caches.default), the location's own cache (assumed)",
    source: 'https://developers.cloudflare.com/workers/runtime-apis/cache/',
  },
  kvHot: {
    ms: 1,
    basis: 'documented',
    note: "a KV read served from the location's cache: Cloudflare reports the hottest keys answered in under a millisecond",
    source: 'https://blog.cloudflare.com/faster-workers-kv/',
  },
  kvCold: {
    ms: 150,
    basis: 'assumed',
    note: "a KV read that misses the location's cache: regional tier, central tier, central store; Cloudflare gives the path, not its time (assumed: one trip to a central store outside the region)",
    source: 'https://developers.cloudflare.com/kv/concepts/how-kv-works/',
  },
  kvWrite: {
    ms: 150,
    basis: 'assumed',
    note: 'a KV write goes to the central store (assumed as a cold read)',
    source: 'https://developers.cloudflare.com/kv/concepts/how-kv-works/',
  },
  backend: {
    ms: 150,
    basis: 'assumed',
    note: "a call to the CMS: its host's latency, not Cloudflare's (assumed)",
    source: 'docs/configuration.md (API_HOST)',
  },
  other: {
    ms: 5,
    basis: 'assumed',
    note: 'any other binding (static assets, images, queues, rate limiters) (assumed)',
    source: 'https://developers.cloudflare.com/workers/runtime-apis/bindings/',
  },
}

/** What KV does with a read that names no cacheTtl. */
export const KV_DEFAULT_CACHE_TTL_S = {
  seconds: 60,
  source: 'https://developers.cloudflare.com/kv/api/read-key-value-pairs/',
}

/**
 * How long an idle isolate lives: Cloudflare documents no figure (isolates are evicted as the
 * location needs the memory). The model assumes this many seconds.
 */
export const ISOLATE_IDLE_S = {
  seconds: 60,
  basis: 'assumed',
  source: 'https://developers.cloudflare.com/workers/reference/how-workers-works/',
}
