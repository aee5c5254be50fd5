/** Types of ./cloudflare-figures.mjs for the TypeScript tests. */
type Price = { included: number; perMillion: number; source: string }
export declare const PRICES: {
  workersPlan: { monthly: number; source: string }
  workersRequests: Price
  workersCpuMs: Price
  kvReads: Price
  kvWrites: Price
  imagesTransformations: Price
  analyticsDataPoints: Price
  queueOperations: Price & { operationsPerMessage: number }
}
type Basis = 'measured' | 'documented' | 'assumed'
type Latency = { ms: number; basis: Basis; note: string; source: string }
export declare const LATENCIES: Record<
  'visitor' | 'edgeCache' | 'cacheApi' | 'kvHot' | 'kvCold' | 'kvWrite' | 'backend' | 'other',
  Latency
>
export declare const KV_DEFAULT_CACHE_TTL_S: { seconds: number; source: string }
export declare const ISOLATE_IDLE_S: { seconds: number; basis: Basis; source: string }
