/// <reference types="node" />
/**
 * The query builder of `npm run vitals` (scripts/lib/vitals/sql.mjs): the SQL API takes no
 * parameters, so a query is made only of names on its lists and literals it has checked, and
 * refuses everything else before anything is sent.
 */
import { describe, expect, it } from 'vitest'
import { buildQuery, QueryRefused } from '../../scripts/lib/vitals/sql.mjs'

const base = {
  dataset: 'erebuni_vitals',
  kind: 'vital',
  dimensions: ['metric', 'device'],
  measures: ['n', 'p75'],
  filters: { days: 7 },
}

describe('the vitals query builder', () => {
  it('writes a weighted query from listed names and checked literals', () => {
    expect(
      buildQuery({
        ...base,
        filters: { days: 3, country: 'AM', metric: 'LCP' },
        orderBy: { by: 'n', descending: true },
        limit: 20,
      })
    ).toBe(
      "SELECT blob2 AS metric, blob8 AS device, SUM(_sample_interval) AS n, quantileExactWeighted(0.75)(double1, _sample_interval) AS p75 FROM erebuni_vitals WHERE blob1 = 'vital' AND timestamp > NOW() - INTERVAL '3' DAY AND blob7 = 'AM' AND blob2 = 'LCP' GROUP BY metric, device ORDER BY n DESC LIMIT 20 FORMAT JSON"
    )
  })

  it.each([
    ['a dimension not on the list', { dimensions: ['blob4'] }],
    ['a dimension written as SQL', { dimensions: ["page') OR 1=1 --"] }],
    ['a dimension of the other kind', { dimensions: ['message'] }],
    ['a measure not on the list', { measures: ['count()'] }],
    ['a measure of the other kind', { kind: 'client-error', measures: ['p75'] }],
    ['no measure', { measures: [] }],
    ['an unknown kind', { kind: "vital' OR '1'='1" }],
    ['a dataset that is not an identifier', { dataset: 'erebuni_vitals; DROP TABLE x' }],
    ['a quoted dataset', { dataset: '"erebuni_vitals"' }],
    ['a country in lower case', { filters: { days: 7, country: 'am' } }],
    ['a country of three letters', { filters: { days: 7, country: 'ARM' } }],
    ['a country carrying SQL', { filters: { days: 7, country: "AM' OR '1'='1" } }],
    ['an unknown metric', { filters: { days: 7, metric: 'FID' } }],
    ['an unknown filter', { filters: { days: 7, page: '/about' } }],
    ['no days', { filters: {} }],
    ['zero days', { filters: { days: 0 } }],
    ['more than 90 days', { filters: { days: 91 } }],
    ['days that are not whole', { filters: { days: 1.5 } }],
    ['days written as SQL', { filters: { days: "7' DAY OR 1=1 --" } }],
    ['an order by a name not selected', { orderBy: { by: 'poor' } }],
    ['an order by SQL', { orderBy: { by: 'n; DROP TABLE x' } }],
    ['a limit that is not a number', { limit: '10 UNION SELECT 1' }],
    ['a limit over 1000', { limit: 1001 }],
  ])('refuses %s', (_, change) => {
    expect(() => buildQuery({ ...base, ...change })).toThrow(QueryRefused)
  })

  it('takes days as the command line gives them, a string of digits', () => {
    expect(buildQuery({ ...base, filters: { days: '30' } })).toContain("INTERVAL '30' DAY")
  })
})
