/**
 * A visitor who leaves a page right after its load event, before its islands and the telemetry
 * chunk have loaded, in every engine: the loads cut short are not errors (client/load-failures.ts).
 * Firefox aborts them as soon as the next navigation starts, and their imports reject as a failed
 * chunk would; neither the page's console nor /api/client-errors may hear of it. What is cut short
 * is a page's island chunks, the same in every language: one page of each kind covers every set.
 */
import { ONE_PAGE_OF_EACH_KIND } from '../support/page-addresses'
import { expect, test } from '../support/e2e/engines/engine-fixtures'

for (const address of ONE_PAGE_OF_EACH_KIND) {
  test(`leaving ${address} right after its load event logs no error and reports nothing`, async ({
    visitor,
  }) => {
    await visitor.open(address)
    await visitor.open(address === '/en/about' ? '/en' : '/en/about')
    // Past the time a deferred report would take to be sent from a page that had stayed.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(visitor.problems.take()).toEqual([])
    expect(await visitor.reports()).toBe(0)
  })
}
