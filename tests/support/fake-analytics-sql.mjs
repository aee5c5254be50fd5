#!/usr/bin/env node
/**
 * A stand-in for Cloudflare's Analytics Engine SQL API (https://developers.cloudflare.com/analytics/analytics-engine/sql-api/)
 * for `npm run vitals` without a Cloudflare account: POST /accounts/{account}/analytics_engine/sql
 * with `Authorization: Bearer <token>`, the query as the body; answers the documented JSON format
 * (`meta`, `data`, `rows`), 64-bit integers as strings as ClickHouse writes them.
 *
 * Queries run for real, on SQLite (node:sqlite) over a table per dataset with the API's columns
 * (timestamp, _sample_interval, index1, blob1..blob20, double1..double20). The few spellings of
 * the API's dialect that `npm run vitals` uses and SQLite lacks are rewritten first:
 * `quantileExactWeighted(q)(x, w)` (an aggregate with ClickHouse's rule: the smallest value whose
 * running weight reaches ceil(q * total weight)), `NOW() - INTERVAL 'n' DAY`, `FORMAT JSON`.
 *
 * `failures` queues answers to give before the real ones (429 or 503 with Retry-After, 401, a
 * malformed body), so tests see the client retry and fail as it should.
 *
 * Run on its own, with a fixture (./vitals-fixtures.mjs), for a look at the report:
 *   npx node tests/support/fake-analytics-sql.mjs [--fixture good|poor-lcp] [--port 8790]
 * prints the environment to give `npm run vitals`.
 */
import { createServer } from 'node:http'
import { DatabaseSync } from 'node:sqlite'
import { pathToFileURL } from 'node:url'

const BLOBS = Array.from({ length: 20 }, (_, i) => `blob${i + 1}`)
const DOUBLES = Array.from({ length: 20 }, (_, i) => `double${i + 1}`)
const COLUMNS = ['dataset', 'timestamp', '_sample_interval', 'index1', ...BLOBS, ...DOUBLES]

/** 'YYYY-MM-DD HH:MM:SS' in UTC, as the API's DateTime columns read. */
export function sqlTime(date) {
  return date.toISOString().replace('T', ' ').slice(0, 19)
}

function openDatabase(datasets) {
  const db = new DatabaseSync(':memory:')
  db.aggregate('quantileExactWeighted', {
    start: () => ({ level: 0.5, points: [] }),
    step: (state, level, value, weight) => {
      state.level = level
      if (value !== null && weight > 0) state.points.push([value, weight])
      return state
    },
    result: ({ level, points }) => {
      if (!points.length) return 0
      points.sort((a, b) => a[0] - b[0])
      const threshold = Math.ceil(points.reduce((sum, [, weight]) => sum + weight, 0) * level)
      let running = 0
      for (const [value, weight] of points) {
        running += weight
        if (running >= threshold) return value
      }
      return points.at(-1)[0]
    },
  })
  for (const [name, rows] of Object.entries(datasets)) {
    if (!/^\w+$/.test(name)) throw new Error(`dataset name ${name}`)
    db.exec(
      `CREATE TABLE ${name} (dataset TEXT, timestamp TEXT, _sample_interval INTEGER, index1 TEXT, ${BLOBS.map((b) => `${b} TEXT DEFAULT ''`).join(', ')}, ${DOUBLES.map((d) => `${d} REAL DEFAULT 0`).join(', ')})`
    )
    const insert = db.prepare(
      `INSERT INTO ${name} (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`
    )
    for (const row of rows)
      insert.run(
        ...COLUMNS.map((column) => {
          if (column === 'dataset') return name
          if (column === 'timestamp')
            return row.timestamp instanceof Date ? sqlTime(row.timestamp) : row.timestamp
          if (column === '_sample_interval') return row._sample_interval ?? 1
          return row[column] ?? (column.startsWith('double') ? 0 : '')
        })
      )
  }
  return db
}

/** The API's dialect, as far as `npm run vitals` speaks it, in SQLite's. */
function toSqlite(sql) {
  const format = /\s+FORMAT\s+(\w+)\s*$/i.exec(sql)
  if (format && format[1].toUpperCase() !== 'JSON') return { error: 'only FORMAT JSON is faked' }
  const query = sql
    .slice(0, format ? format.index : undefined)
    .replace(/quantileExactWeighted\(([\d.]+)\)\(/g, 'quantileExactWeighted($1, ')
    .replace(/NOW\(\)\s*-\s*INTERVAL\s*'(\d+)'\s*DAY/gi, "datetime('now', '-$1 days')")
  return { query }
}

function typeOf(value) {
  if (typeof value === 'number') return Number.isInteger(value) ? 'UInt64' : 'Float64'
  return 'String'
}

/**
 * Starts the fake on a free port (or `port`). Resolves to its base URL (CLOUDFLARE_API_BASE_URL),
 * the queries it received, and close().
 */
export async function startFakeSqlApi({
  accountId = 'a'.repeat(32),
  token = 'test-token',
  datasets = {},
  failures = [],
  port = 0,
} = {}) {
  const db = openDatabase(datasets)
  const queries = []
  const server = createServer(async (request, response) => {
    let body = ''
    for await (const chunk of request) body += chunk
    const send = (status, payload, headers = {}) =>
      response
        .writeHead(status, {
          'Content-Type': typeof payload === 'string' ? 'text/plain' : 'application/json',
          ...headers,
        })
        .end(typeof payload === 'string' ? payload : JSON.stringify(payload))
    if (
      request.method !== 'POST' ||
      request.url !== `/client/v4/accounts/${accountId}/analytics_engine/sql`
    )
      return send(404, {
        success: false,
        errors: [{ code: 7003, message: 'No route for that URI' }],
      })
    if (request.headers.authorization !== `Bearer ${token}`)
      return send(401, {
        success: false,
        errors: [{ code: 10000, message: 'Authentication error' }],
      })
    queries.push(body)
    const failure = failures.shift()
    if (failure) return send(failure.status, failure.body ?? 'busy', failure.headers ?? {})
    const { query, error } = toSqlite(body)
    if (error) return send(400, error)
    try {
      const statement = db.prepare(query)
      const data = statement
        .all()
        .map((row) =>
          Object.fromEntries(
            Object.entries(row).map(([name, value]) => [
              name,
              typeof value === 'number' && Number.isInteger(value) ? String(value) : value,
            ])
          )
        )
      const names = statement.columns().map((column) => column.name)
      const first = statement.all()[0] ?? {}
      send(200, {
        meta: names.map((name) => ({ name, type: typeOf(first[name]) })),
        data,
        rows: data.length,
        rows_before_limit_at_least: data.length,
      })
    } catch (failed) {
      send(422, `cannot run query: ${failed.message}`)
    }
  })
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}/client/v4`,
    accountId,
    token,
    queries,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { parseArgs } = await import('node:util')
  const { fixtureRows } = await import('./vitals-fixtures.mjs')
  const { values } = parseArgs({
    options: {
      fixture: { type: 'string', default: 'good' },
      port: { type: 'string', default: '8790' },
    },
  })
  const fake = await startFakeSqlApi({
    datasets: { erebuni_vitals: fixtureRows(values.fixture), erebuni_vitals_staging: [] },
    port: Number(values.port),
  })
  console.log(
    `fake Analytics Engine SQL API with the "${values.fixture}" fixture; in another shell:`
  )
  console.log(
    `CLOUDFLARE_API_BASE_URL=${fake.baseUrl} CLOUDFLARE_ACCOUNT_ID=${fake.accountId} CLOUDFLARE_API_TOKEN=${fake.token} npm run vitals -- --env production`
  )
}
