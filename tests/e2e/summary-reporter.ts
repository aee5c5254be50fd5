/**
 * Ends the run with one plain closing line, `e2e: N passed, N failed, N skipped`. Tests that never
 * ran because the run itself failed (the server did not start, say) count as failed, not skipped.
 */
import type { FullResult, Reporter, Suite } from '@playwright/test/reporter'

export default class SummaryReporter implements Reporter {
  private root: Suite | undefined

  onBegin(_config: unknown, suite: Suite): void {
    this.root = suite
  }

  printsToStdio(): boolean {
    return true
  }

  onEnd(result: FullResult): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    let flaky = 0
    let notRun = 0
    for (const test of this.root?.allTests() ?? []) {
      if (test.results.length === 0) {
        notRun += 1
        continue
      }
      const outcome = test.outcome()
      if (outcome === 'expected') passed += 1
      else if (outcome === 'flaky') ((passed += 1), (flaky += 1))
      else if (outcome === 'skipped') skipped += 1
      else failed += 1
    }
    if (notRun > 0 && result.status !== 'passed') failed += notRun
    else skipped += notRun
    if (flaky > 0) console.log(`e2e: ${flaky} flaky (passed only on retry)`)
    if (result.status !== 'passed' && failed === 0) failed = 1 // the run failed outside any test
    console.log(`e2e: ${passed} passed, ${failed} failed, ${skipped} skipped`)
  }
}
