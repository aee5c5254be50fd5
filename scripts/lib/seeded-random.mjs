/**
 * mulberry32: a small seeded generator of numbers in [0, 1), so that a simulation or a fixture gives
 * the same figures every run (tests/tooling/visit-model.test.ts, tests/support/vitals-fixtures.mjs, scripts/bench/cold/edge-month.mjs).
 * @param {number} seed
 * @returns {() => number}
 */
export function seededRandom(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
