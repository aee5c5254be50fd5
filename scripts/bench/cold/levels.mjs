/**
 * The cold levels a visit can meet (issue 39), and how the cold bench reads a recorded trace
 * (scripts/bench/cold/worker.ts) into what it prints: the chain of round trips before the first
 * byte, and the operations the invocation made in all.
 */

import { leavesLocation } from '../../lib/io-locality.mjs'

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

/**
 * @typedef {{ kind: string, target: string, units: number, wave: number, leaves: boolean,
 *   beforeResponse: boolean, cacheTtl?: number, lifetime?: number }} IoRecord
 */

/**
 * The kinds of the calls before the first byte, one list per step of the chain: calls in one list
 * ran side by side, each list waited for the one before (the recorder's waves,
 * scripts/lib/io-chain.ts). A call that ran after the response (wave 0) was not awaited by it.
 * @param {IoRecord[]} records
 * @returns {string[][]}
 */
export function chainBeforeFirstByte(records) {
  const depth = Math.max(0, ...records.map((record) => record.wave))
  return Array.from({ length: depth }, (_, index) =>
    records.filter((record) => record.wave === index + 1).map((record) => record.kind)
  )
}

/**
 * Whether each step of a chain can leave the location: when any of its calls can.
 * @param {string[][]} chain
 */
export function stepsLeaving(chain) {
  return chain.filter((kinds) => kinds.some(leavesLocation)).length
}

/**
 * A chain as one line, each step marked local to the location (·) or able to leave it (↗):
 * "· cache-read → ↗ 5 kv-read ‖ backend".
 * @param {string[][]} chain
 */
export function chainText(chain) {
  if (chain.length === 0) return '—'
  return chain
    .map((kinds) => {
      const counts = new Map()
      for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1)
      const calls = [...counts].map(([kind, count]) => (count > 1 ? `${count} ${kind}` : kind))
      return `${kinds.some(leavesLocation) ? '↗' : '·'} ${calls.join(' ‖ ')}`
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
