// @ts-check
/**
 * What the smoke saw: one line per check, PASS, SKIP (with why) or FAIL (with what it saw instead),
 * then a count. A check that throws (no answer, a time-out) is a FAIL naming the error.
 */

/** @typedef {'PASS' | 'SKIP' | 'FAIL'} Outcome */

export function createReport(/** @type {(line: string) => void} */ print = console.log) {
  /** @type {{ outcome: Outcome, name: string, seen: string }[]} */
  const lines = []
  /** @param {Outcome} outcome @param {string} name @param {string} seen */
  const record = (outcome, name, seen) => {
    lines.push({ outcome, name, seen })
    print(`${outcome.padEnd(4)}  ${name}: ${seen}`)
  }
  return {
    lines,
    pass: (/** @type {string} */ name, /** @type {string} */ seen) => record('PASS', name, seen),
    skip: (/** @type {string} */ name, /** @type {string} */ why) => record('SKIP', name, why),
    fail: (/** @type {string} */ name, /** @type {string} */ seen) => record('FAIL', name, seen),
    /** PASS with `seen` when `ok`, else FAIL with it. */
    expect: (/** @type {boolean} */ ok, /** @type {string} */ name, /** @type {string} */ seen) =>
      record(ok ? 'PASS' : 'FAIL', name, seen),
    /** Runs a group of checks; an exception fails `name` instead of ending the run. */
    async guard(/** @type {string} */ name, /** @type {() => Promise<void>} */ run) {
      try {
        await run()
      } catch (error) {
        const cause =
          error instanceof Error && error.cause instanceof Error
            ? ` (${/** @type {{ code?: string }} */ (error.cause).code ?? error.cause.message})`
            : ''
        record(
          'FAIL',
          name,
          `no answer: ${error instanceof Error ? error.message : String(error)}${cause}`
        )
      }
    },
    get failed() {
      return lines.filter((line) => line.outcome === 'FAIL').length
    },
    summary() {
      const count = (/** @type {Outcome} */ outcome) =>
        lines.filter((line) => line.outcome === outcome).length
      return `smoke: ${count('PASS')} passed, ${count('SKIP')} skipped, ${count('FAIL')} failed`
    },
  }
}

/** @typedef {ReturnType<typeof createReport>} Report */
