/**
 * Two accessibility checkers: axe-core (the engine of Lighthouse's and most checkers' audits) finds
 * no violation of WCAG 2.x A/AA or of its best practices, and HTML_CodeSniffer (pa11y's other
 * runner) no WCAG 2 AA error. On every page of the seeded site in every language, once: one page
 * of each kind on a desktop (1280 px), each kind in another language, and the other ten on a phone
 * (375 px). A page's markup and names follow its language, not the width, and what the width
 * changes, the layout, follows the page's kind (docs/decisions/0034), so each language's names are
 * read on every page and each kind's layout at both widths (decision 0035). Image-only links (the
 * enterprise rows' icons) carry the link's purpose as their image's alt, which both read.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { ONE_PAGE_OF_EACH_KIND, PAGE_ADDRESSES } from '../support/page-addresses'
import { desktop, expect, gotoLoaded, phone, test } from '../support/e2e/fixtures'

const require = createRequire(import.meta.url)
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')
const HTMLCS_SOURCE = readFileSync(require.resolve('html_codesniffer/build/HTMLCS.js'), 'utf8')

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }

for (const [screen, use, addresses] of [
  ['375 px', phone, PAGE_ADDRESSES.filter((address) => !ONE_PAGE_OF_EACH_KIND.includes(address))],
  ['1280 px', desktop, ONE_PAGE_OF_EACH_KIND],
] as const) {
  test.describe(`accessibility checkers at ${screen}`, () => {
    // A page's load and hydration, then axe over the whole document: seconds each on two shared cores.
    test.describe.configure({ timeout: 90_000 })
    test.use(use)
    for (const address of addresses) {
      test(`${address} has no axe violation and no HTML_CodeSniffer error at ${screen}`, async ({
        page,
      }) => {
        await gotoLoaded(page, address)
        // Evaluated through the driver, not a <script>: the site's CSP allows no inline script.
        await page.evaluate(AXE_SOURCE)
        const violations = await page.evaluate(async () => {
          const axe = (
            window as unknown as {
              axe: {
                run: (context: Document, options: object) => Promise<{ violations: Violation[] }>
              }
            }
          ).axe
          const result = await axe.run(document, {
            runOnly: {
              type: 'tag',
              values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
            },
          })
          return result.violations.map(({ id, impact, help, nodes }) => ({
            id,
            impact,
            help,
            nodes: nodes.map(({ target }) => ({ target })),
          }))
        })
        expect(
          violations.map(
            (violation) =>
              `${violation.id} (${violation.impact}): ${violation.help}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`
          )
        ).toEqual([])

        await page.evaluate(HTMLCS_SOURCE)
        const errors = await page.evaluate(
          () =>
            new Promise<string[]>((resolve, reject) => {
              type Message = { type: number; code: string; msg: string; element: Element }
              const htmlcs = (
                window as unknown as {
                  HTMLCS: {
                    process: (
                      standard: string,
                      content: Document,
                      done: () => void,
                      failed: () => void
                    ) => void
                    getMessages: () => Message[]
                  }
                }
              ).HTMLCS
              const ERROR = 1
              htmlcs.process(
                'WCAG2AA',
                document,
                () =>
                  resolve(
                    htmlcs
                      .getMessages()
                      .filter((message) => message.type === ERROR)
                      .map(
                        (message) => `${message.code}: ${message.element.outerHTML.slice(0, 160)}`
                      )
                  ),
                () => reject(new Error('HTML_CodeSniffer failed'))
              )
            })
        )
        expect(errors).toEqual([])
      })
    }
  })
}
