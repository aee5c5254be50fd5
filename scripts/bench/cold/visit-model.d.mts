/** Types of ./visit-model.mjs for the TypeScript tests (tests/tooling/visit-model.test.ts). */
export declare const LEVELS: readonly ['a', 'b', 'c', 'd', 'e', 'f']
export type Level = (typeof LEVELS)[number]
export declare const SECONDS_PER_DAY: number
export declare const DAYS_PER_MONTH: number

export type SiteLifetimes = {
  visitsPerDay: number
  pages: number
  freshS: number
  staleS: number
  cacheApiS: number
  isolateIdleS: number
  kvCacheTtlS: number
}
export declare function levelShares(site: SiteLifetimes): Record<Level, number> & { kvHot: number }
export declare function kvHotShare(options: {
  perPage: number
  pages: number
  freshS: number
  kvCacheTtlS: number
}): number

export type Latencies = Record<
  'visitor' | 'edgeCache' | 'cacheApi' | 'kvHot' | 'kvCold' | 'kvWrite' | 'backend' | 'other',
  { ms: number }
>
export declare function timeToFirstByte(
  measured: { chain: string[][]; cpuMs: number },
  options: { kvHot: boolean; latencies: Latencies; workerRuns: boolean }
): number
export declare function latencyOf(kind: string, kvHot: boolean, latencies: Latencies): number
export declare function quantile(outcomes: { value: number; weight: number }[], q: number): number

export type Price = { included: number; perMillion: number }
export declare function monthlyBill(
  units: Record<string, number>,
  prices: Record<string, object>
): {
  rows: { product: string; units: number; included: number; usd: number }[]
  total: number
}
