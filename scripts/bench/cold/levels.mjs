/**
 * The cold levels a visit can meet, and how the cold bench reads a recorded trace
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

/** @typedef {import('../../lib/io-chain.ts').IoStep} IoStep */

/**
 * The kind of each call of each step of a chain: the recorder names a call "<kind> <target>".
 * @param {IoStep} step
 * @returns {string[]}
 */
function kindsOf(step) {
  return step.calls.map((call) => call.slice(0, call.indexOf(' ')))
}

/**
 * The kinds of the calls of each step of a chain the recorder measured (its `steps`), for the
 * visit model (./visit-model.mjs): calls in one list ran side by side, each list waited for the one
 * before.
 * @param {IoStep[]} steps
 * @returns {string[][]}
 */
export function stepKinds(steps) {
  return steps.map(kindsOf)
}

/**
 * How many steps of a chain of kinds (`stepKinds`) can leave the location: those with a call that
 * can. The visit model's table (./model-report.mjs) reads it; the bench's own counts take the
 * recorder's steps (stepsLeaving in scripts/lib/io-chain.ts).
 * @param {string[][]} chain
 */
export function stepsLeaving(chain) {
  return chain.filter((kinds) => kinds.some(leavesLocation)).length
}

/**
 * A chain the recorder measured (its `steps`) as one line, each step marked local to the location
 * (·) or able to leave it (↗), as the recorder marked it: "· cache-read → ↗ 5 kv-read ‖ backend".
 * @param {IoStep[]} steps
 */
export function chainText(steps) {
  if (steps.length === 0) return '—'
  return steps
    .map((step) => {
      const counts = new Map()
      for (const kind of kindsOf(step)) counts.set(kind, (counts.get(kind) ?? 0) + 1)
      const calls = [...counts].map(([kind, count]) => (count > 1 ? `${count} ${kind}` : kind))
      return `${step.leaves ? '↗' : '·'} ${calls.join(' ‖ ')}`
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
