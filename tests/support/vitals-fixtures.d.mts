/** Types of ./vitals-fixtures.mjs for the TypeScript tests. */
import type { FakeRow } from './fake-analytics-sql.mjs'
export const VERSIONS: { previous: string; latest: string }
export const HOSTILE_PAGES: string[]
export function fixtureRows(name?: 'good' | 'poor-lcp', now?: Date): FakeRow[]
