/**
 * axe-core (the engine of Lighthouse's and most checkers' accessibility audits) on every page of
 * the seeded site, in every language, on a phone (375 px) and a desktop (1280 px): no violation of
 * WCAG 2.x A/AA or of axe's best practices. Image-only links (the enterprise rows' icons) carry
 * the link's purpose as their image's alt, which axe and HTML_CodeSniffer both read.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { PAGE_ADDRESSES } from '../support/page-addresses'
import { desktop, expect, gotoAndHydrate, phone, test } from './fixtures'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }

for (const [screen, use] of [['375 px', phone], ['1280 px', desktop]] as const) {
  test.describe(`axe at ${screen}`, () => {
    // A page's load and hydration, then axe over the whole document: seconds each on two shared cores.
    test.describe.configure({ timeout: 90_000 })
    test.use(use)
    for (const address of PAGE_ADDRESSES) {
      test(`${address} has no axe violation at ${screen}`, async ({ page }) => {
        await gotoAndHydrate(page, address)
        // Evaluated through the driver, not a <script>: the site's CSP allows no inline script.
        await page.evaluate(AXE_SOURCE)
        const violations = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> } }).axe
          const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } })
          return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target }) => ({ target })) }))
        })
        expect(violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([])
      })
    }
  })
}
