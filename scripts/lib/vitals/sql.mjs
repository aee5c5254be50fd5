/**
 * The SQL that `npm run vitals` sends to the Analytics Engine SQL API, built only from allow-listed
 * identifiers and validated literals. The API takes no parameters, and the dataset holds what
 * beacons wrote (a page path, an error message): so no value read from a row, and nothing a caller
 * passes that is not on a list below or a checked literal, ever reaches a query. Anything else is
 * refused with a QueryRefused error (tests/tooling/vitals-sql.test.ts).
 *
 * Columns are the data points' positions (src/routes/telemetry.ts, src/contact/message-data-point.ts). Every figure is weighted by
 * `_sample_interval`, as the SQL API's documentation asks of sampled data:
 * https://developers.cloudflare.com/analytics/analytics-engine/sql-api/#sampling
 */
import { METRIC_NAMES } from '../../../src/shared/telemetry.ts'

export class QueryRefused extends Error {
  name = 'QueryRefused'
}

const KIND = 'blob1'
const WEIGHT = '_sample_interval'

/** The names a report may group by, per kind of data point, and the column each reads. */
export const DIMENSIONS = {
  vital: {
    metric: 'blob2',
    rating: 'blob3',
    page: 'blob4',
    lng: 'blob5',
    navigationType: 'blob6',
    country: 'blob7',
    device: 'blob8',
    version: 'blob9',
    cache: 'blob10',
  },
  'client-error': {
    errorKind: 'blob2',
    message: 'blob3',
    source: 'blob4',
    page: 'blob5',
    lng: 'blob6',
    country: 'blob8',
  },
  /** A message the site kept (src/contact/message-data-point.ts). */
  message: {
    page: 'blob2',
    lng: 'blob3',
    project: 'blob4',
    device: 'blob5',
    country: 'blob6',
  },
}

/** The figures a report may ask for, per kind, each a fixed expression weighted by _sample_interval. */
export const MEASURES = {
  vital: {
    /** Readings represented (rows times their sample interval). */
    n: `SUM(${WEIGHT})`,
    /** 75th percentile of the metric's value, weighted. */
    p75: `quantileExactWeighted(0.75)(double1, ${WEIGHT})`,
    good: `SUM(if(blob3 = 'good', ${WEIGHT}, 0))`,
    poor: `SUM(if(blob3 = 'poor', ${WEIGHT}, 0))`,
    /** 75th percentile of the worker's time (double2; -1 where the page did not say). */
    serverP75: `quantileExactWeighted(0.75)(double2, ${WEIGHT})`,
    firstSeen: 'MIN(timestamp)',
    lastSeen: 'MAX(timestamp)',
  },
  'client-error': {
    n: `SUM(${WEIGHT})`,
    lastSeen: 'MAX(timestamp)',
  },
  message: {
    /** Messages represented (rows times their sample interval). */
    n: `SUM(${WEIGHT})`,
  },
}

export const MAX_DAYS = 90
const MAX_LIMIT = 1000
const DATASET = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/
const COUNTRY = /^[A-Z]{2}$/

/** `--country`: two capital letters (ISO 3166-1 alpha-2, as Cloudflare's request.cf.country). */
export function countryCode(value) {
  if (typeof value !== 'string' || !COUNTRY.test(value))
    throw new QueryRefused(`country must be two capital letters (like AM), not ${show(value)}`)
  return value
}

/** `--days`: a whole number of days from 1 to MAX_DAYS. */
export function dayCount(value) {
  const days = typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : value
  if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS)
    throw new QueryRefused(`days must be a whole number from 1 to ${MAX_DAYS}, not ${show(value)}`)
  return days
}

/**
 * One SELECT over `dataset`'s points of `kind` in the last `filters.days` days:
 * `dimensions` and `measures` are names from the lists above, `filters` may add a country and (for
 * vitals) a metric, `orderBy` names a selected dimension or measure.
 */
export function buildQuery({ dataset, kind, dimensions = [], measures, filters, orderBy, limit }) {
  if (typeof dataset !== 'string' || !DATASET.test(dataset))
    throw new QueryRefused(`dataset must be a plain identifier, not ${show(dataset)}`)
  if (!Object.hasOwn(DIMENSIONS, kind)) throw new QueryRefused(`unknown kind ${show(kind)}`)
  const columns = DIMENSIONS[kind]
  const figures = MEASURES[kind]
  if (!Array.isArray(measures) || measures.length === 0)
    throw new QueryRefused('a query needs at least one measure')
  const select = [
    ...dimensions.map((name) => `${listed(columns, name, 'dimension')} AS ${name}`),
    ...measures.map((name) => `${listed(figures, name, 'measure')} AS ${name}`),
  ]
  const where = [
    `${KIND} = '${kind}'`,
    `timestamp > NOW() - INTERVAL '${dayCount(filters?.days)}' DAY`,
  ]
  for (const [name, value] of Object.entries(filters ?? {})) {
    if (name === 'days') continue
    if (name === 'country' && value !== undefined)
      where.push(`${columns.country} = '${countryCode(value)}'`)
    else if (name === 'metric' && kind === 'vital' && value !== undefined)
      where.push(`${columns.metric} = '${metricName(value)}'`)
    else if (value !== undefined) throw new QueryRefused(`unknown filter ${show(name)}`)
  }
  let sql = `SELECT ${select.join(', ')} FROM ${dataset} WHERE ${where.join(' AND ')}`
  if (dimensions.length) sql += ` GROUP BY ${dimensions.join(', ')}`
  if (orderBy !== undefined) {
    const { by, descending } = orderBy
    if (![...dimensions, ...measures].includes(by))
      throw new QueryRefused(`can only order by a selected name, not ${show(by)}`)
    sql += ` ORDER BY ${by} ${descending ? 'DESC' : 'ASC'}`
  }
  if (limit !== undefined) {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      throw new QueryRefused(
        `limit must be a whole number from 1 to ${MAX_LIMIT}, not ${show(limit)}`
      )
    sql += ` LIMIT ${limit}`
  }
  return `${sql} FORMAT JSON`
}

function listed(list, name, what) {
  if (typeof name !== 'string' || !Object.hasOwn(list, name))
    throw new QueryRefused(`unknown ${what} ${show(name)}`)
  return list[name]
}

function metricName(value) {
  if (!METRIC_NAMES.includes(value))
    throw new QueryRefused(`metric must be one of ${METRIC_NAMES.join(', ')}, not ${show(value)}`)
  return value
}

function show(value) {
  return JSON.stringify(value) ?? String(value)
}
