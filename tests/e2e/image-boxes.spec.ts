/**
 * A CMS photo of any shape leaves the layout where it was: every content image's box comes from the
 * stylesheet (a fixed aspect ratio, or a size, with `object-fit`), never from the photo, so no
 * upload can shift the page as it arrives (CLS stays 0, whatever editors upload).
 *
 * Each page is loaded twice, at 375 px (DPR 2) and at 1280 px, with every image the image route
 * would serve replaced by a photo of one shape: first all very tall (1:3), then all very wide
 * (3:1). Both visits scroll the page to the bottom so every lazy image loads; then every <img>'s
 * box (position in the document and size) must be the same in both. A box that follows its photo's
 * shape differs by hundreds of pixels between the two.
 */
import sharp from 'sharp'
import { scrollThroughImages } from '../../scripts/image-audit.mjs'
import { expect, gotoAndHydrate, IMAGE_SCREENS, test, type Page } from './fixtures'
import { PAGE_ADDRESSES } from '../support/page-addresses'


const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 166, g: 75, b: 37 } } }).png().toBuffer()
const SHAPES = { tall: photo(300, 900), wide: photo(900, 300) }

type Box = { key: string; x: number; y: number; width: number; height: number }

/** Loads `address` with every image-route answer a photo of `shape`, scrolled through; each <img>'s box. */
async function boxesWith(page: Page, address: string, shape: keyof typeof SHAPES): Promise<Box[]> {
  const body = await SHAPES[shape]
  await page.route(/\/_image\?/, (route) => route.fulfill({ status: 200, contentType: 'image/png', body }))
  await gotoAndHydrate(page, address)
  await page.evaluate(() => document.fonts.ready)
  const { images } = await scrollThroughImages(page)
  expect(images.filter((image) => image.naturalWidth === 0).map((image) => image.src)).toEqual([])
  return page.evaluate(() => {
    const seen = new Map<string, number>()
    return [...document.images].map((image) => {
      const name = `${image.className || image.parentElement?.className || 'img'} ${image.getAttribute('src')}`
      const count = (seen.get(name) ?? 0) + 1
      seen.set(name, count)
      const box = image.getBoundingClientRect()
      const round = (value: number) => Math.round(value * 10) / 10
      return { key: `${name} #${count}`, x: round(box.x + scrollX), y: round(box.y + scrollY), width: round(box.width), height: round(box.height) }
    })
  })
}

for (const [screen, device] of IMAGE_SCREENS) {
  test.describe(`image boxes at ${screen}`, () => {
    test.describe.configure({ timeout: 90_000 })
    test.use(device)
    for (const address of PAGE_ADDRESSES) {
      test(`${address} keeps every image box in place whatever the shape of the photos`, async ({ browser, baseURL }) => {
        const visit = async (shape: keyof typeof SHAPES) => {
          const context = await browser.newContext({ ...device, baseURL })
          try {
            return await boxesWith(await context.newPage(), address, shape)
          } finally {
            await context.close()
          }
        }
        const tall = await visit('tall')
        const wide = await visit('wide')
        expect(tall.length).toBeGreaterThan(0)
        expect(wide.map((box) => box.key)).toEqual(tall.map((box) => box.key))
        const moved = tall.flatMap((box, index) => (JSON.stringify(box) === JSON.stringify(wide[index]) ? [] : [{ tall: box, wide: wide[index] }]))
        expect(moved).toEqual([])
      })
    }
  })
}
