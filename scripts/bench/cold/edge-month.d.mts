/** Types of ./edge-month.mjs for the TypeScript tests. */
export type WorkerLevel = 'c' | 'd' | 'e' | 'f'
export type MonthOptions = {
  visitsPerDay: number
  pages: number
  days: number
  idleS: number
  changes: number
  deploys: number
  isolateIdleS: number
  kvCacheTtlS: number
  edgeHeaders: Record<string, string>
  seed?: number
}
export type MonthResult = {
  visits: number
  edge: Record<string, number>
  runs: Record<WorkerLevel, number>
  outcomes: { level: string; kvHot: boolean; newIsolate: boolean }[]
}
export declare function simulateVisits(options: MonthOptions): Promise<MonthResult>
