/**
 * The cold levels a visit can meet (issue 39), and how the cold bench reads a recorded trace
 * (scripts/bench/cold/worker.ts) into what it prints: the chain of round trips before the first
 * byte, and the operations the invocation made in all.
 */

/** @typedef {import('./visit-model.mjs').Level} Level */

/** @type {Record<Level, string>} */
export const LEVEL_NAMES = {
  a: '(a) edge copy fresh',
  b: '(b) edge copy stale',
  c: '(c) no edge copy, warm isolate, Cache API hit',
  d: '(d) new isolate, Cache API hit, KV cold',
  e: '(e) new isolate, Cache API miss, payloads in KV',
  f: '(f) full miss to the CMS',
}

/** Round trips that are I/O the visitor may wait for; data points wait for nothing. */
const WAITS = new Set([
  'kv-read',
  'kv-write',
  'kv-delete',
  'kv-list',
  'cache-read',
  'cache-write',
  'cache-delete',
  'backend',
  'fetch',
  'images',
  'queue',
  'ratelimit',
  'assets',
])

/**
 * @typedef {{ kind: string, target: string, units: number, depth: number, beforeResponse: boolean,
 *   answeredBeforeResponse?: boolean, cacheTtl?: number, lifetime?: number }} IoRecord
 */

/**
 * The kinds of the calls before the first byte, one list per step of the chain: calls in one list
 * ran side by side, each list waited for the one before. A call still under way when the worker
 * returned its response (`answeredBeforeResponse` false) was not awaited by it: background work
 * started during the render is not in the chain.
 * @param {IoRecord[]} records
 * @returns {string[][]}
 */
export function chainBeforeFirstByte(records) {
  const before = records.filter(
    (record) =>
      record.beforeResponse && record.answeredBeforeResponse !== false && WAITS.has(record.kind)
  )
  const depth = Math.max(0, ...before.map((record) => record.depth))
  return Array.from({ length: depth }, (_, index) =>
    before.filter((record) => record.depth === index + 1).map((record) => record.kind)
  )
}

/**
 * A chain as one line: "cache-read → 5 kv-read → 5 backend".
 * @param {string[][]} chain
 */
export function chainText(chain) {
  if (chain.length === 0) return '—'
  return chain
    .map((kinds) => {
      const counts = new Map()
      for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1)
      return [...counts].map(([kind, count]) => (count > 1 ? `${count} ${kind}` : kind)).join(' ‖ ')
    })
    .join(' → ')
}

/**
 * Billable units by kind over some invocations' records (a bulk KV read counts one per key).
 * @param {IoRecord[]} records
 * @returns {Record<string, number>}
 */
export function unitsByKind(records) {
  /** @type {Record<string, number>} */
  const units = {}
  for (const record of records) units[record.kind] = (units[record.kind] ?? 0) + record.units
  return units
}
