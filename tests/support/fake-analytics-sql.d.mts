/** Types of ./fake-analytics-sql.mjs for the TypeScript tests. */
export type FakeRow = Record<string, string | number | Date>
export type FakeFailure = { status: number; body?: string; headers?: Record<string, string> }
export function sqlTime(date: Date): string
export function startFakeSqlApi(options?: {
  accountId?: string
  token?: string
  datasets?: Record<string, FakeRow[]>
  failures?: FakeFailure[]
  port?: number
}): Promise<{
  baseUrl: string
  accountId: string
  token: string
  /** Every query received, in order, including those answered with a queued failure. */
  queries: string[]
  close(): Promise<void>
}>
