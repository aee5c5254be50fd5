/**
 * Whole words (docs/decisions/0008-whole-words.md), in every engine: on every page, in hy, en and
 * ru, at the narrowest width of each layout, no word of a heading, card title, button, label or
 * navigation link is laid out across two lines. Each word's line boxes are measured with
 * Range.getClientRects() (tests/support/e2e/engines/in-page.ts); the phone menu is opened to measure its links.
 *
 * The widths: the stylesheet has three layouts, phones, from 48em (768 px) and from 64em (1024 px),
 * and within one a word has the least room at its narrowest width: the boxes grow with the window,
 * and the fluid type sizes, clamp(a + b vw), grow more slowly than the window. So 320 px stands for
 * every phone (375 px too), and 768 and 1024 px for the other two; 1280 px is where the 75rem
 * (1200 px) page width and every type size have reached their caps, past which (1920 px) nothing
 * wraps differently.
 */
import { PAGE_ADDRESSES } from '../support/page-addresses'
import { expect, test } from '../support/e2e/engines/engine-fixtures'
import {
  isShown,
  nextFrames,
  SHORT_TEXTS,
  wordsSplitAcrossLines,
} from '../support/e2e/engines/in-page'
import { until } from '../support/e2e/engines/visitor'

const WIDTHS = [320, 768, 1024, 1280]

for (const address of PAGE_ADDRESSES) {
  test(`${address} keeps every word of its headings, buttons, labels and links on one line from 320 px up`, async ({
    visitor,
  }) => {
    test.setTimeout(60_000)
    const widths = WIDTHS.filter((width) => width >= visitor.narrowest)
    if (widths.length < WIDTHS.length) {
      test.info().annotations.push({
        type: 'not shown',
        description: `${WIDTHS.filter((width) => !widths.includes(width)).join(', ')} px: narrower than ${visitor.name} can show (${visitor.narrowest} px)`,
      })
    }
    await visitor.open(address, { screen: { width: widths[0]!, height: 900 } })
    const split: string[] = []
    for (const width of widths) {
      await visitor.resize({ width, height: 900 })
      await visitor.run(nextFrames, null)
      split.push(
        ...(await visitor.run(wordsSplitAcrossLines, SHORT_TEXTS)).map(
          (word) => `${width} px: ${word}`
        )
      )
      if (await visitor.run(isShown, '.navbar__toggle')) {
        // Opened from the page (visitor-islands.spec.ts clicks it as a visitor does): only its words matter here.
        const toggleTo = async (expanded: string) => {
          await visitor.run(
            () => document.querySelector<HTMLButtonElement>('.navbar__toggle')!.click(),
            null
          )
          await until(
            visitor,
            (want) =>
              document.querySelector('.navbar__toggle')!.getAttribute('aria-expanded') === want,
            expanded,
            { what: `the menu's aria-expanded="${expanded}"` }
          )
        }
        await toggleTo('true')
        await visitor.run(nextFrames, null)
        split.push(
          ...(await visitor.run(wordsSplitAcrossLines, '#navbar-links a')).map(
            (word) => `${width} px, menu open: ${word}`
          )
        )
        await toggleTo('false')
      }
    }
    expect(split).toEqual([])
  })
}
