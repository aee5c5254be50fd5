/** Types of ./sql.mjs for the TypeScript tests. */
export class QueryRefused extends Error {}
export const DIMENSIONS: Record<string, Record<string, string>>
export const MEASURES: Record<string, Record<string, string>>
export const MAX_DAYS: number
export function countryCode(value: unknown): string
export function dayCount(value: unknown): number
export function buildQuery(spec: {
  dataset: unknown
  kind: unknown
  dimensions?: unknown[]
  measures?: unknown
  filters?: Record<string, unknown>
  orderBy?: { by: unknown; descending?: boolean }
  limit?: unknown
}): string
