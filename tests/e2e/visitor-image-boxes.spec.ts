/**
 * A CMS photo of any shape leaves the layout where it was, in every engine: every content image's
 * box comes from the stylesheet (a fixed aspect ratio, or a size, with `object-fit`), never from
 * the photo, so no upload can shift the page as it arrives (docs/decisions/0015-images-in-pages.md).
 *
 * One page of each kind is loaded on a phone and on a desktop screen, and every <img> is given a
 * very tall (1:3) photo, then a very wide (3:1) one, drawn in the page (tests/support/e2e/engines/in-page.ts);
 * every box (position in the document and size) must be the same with both. A box that followed
 * its photo's shape would differ by hundreds of pixels. A box's rule belongs to its image's role,
 * and a page's roles follow its kind, not its language; every page in every language is laid out
 * without overflow by visitor-pages.spec.ts.
 */
import { ONE_PAGE_OF_EACH_KIND } from '../support/page-addresses'
import { expect, test } from '../support/e2e/engines/engine-fixtures'
import { imageBoxesWithPhotos } from '../support/e2e/engines/in-page'
import { DESKTOP, PHONE } from '../support/e2e/engines/visitor'

for (const [device, screen] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  test.describe(`image boxes on a ${device}`, () => {
    for (const address of ONE_PAGE_OF_EACH_KIND) {
      test(`${address} keeps every image box in place whatever the shape of the photos`, async ({
        visitor,
      }) => {
        test.skip(
          visitor.narrowest > screen.width,
          `${visitor.name} cannot show a ${screen.width}-px screen`
        )
        await visitor.open(address, { screen })
        const tall = await visitor.run(imageBoxesWithPhotos, 'tall')
        const wide = await visitor.run(imageBoxesWithPhotos, 'wide')
        expect(tall.length).toBeGreaterThan(0)
        expect(wide.map((box) => box.key)).toEqual(tall.map((box) => box.key))
        const moved = tall.flatMap((box, index) =>
          JSON.stringify(box) === JSON.stringify(wide[index])
            ? []
            : [{ tall: box, wide: wide[index] }]
        )
        expect(moved).toEqual([])
      })
    }
  })
}
