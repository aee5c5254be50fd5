/**
 * The bench's image figures (scripts/bench.mjs, step 5): what a phone (375 px, DPR 2, a fresh
 * browser cache) receives in images while scrolling each page to the bottom, and the largest
 * oversize ratio among the images it had in view (natural width over displayed width × DPR),
 * with the image that has it. Measured by scripts/image-audit.mjs, as the browser tests do.
 *
 * Targets (issue 12): at most 700 KB of images per page with camera uploads, no image over 2.5×.
 */
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, chromiumPath } from './chromium-path.mjs'
import { scrollThroughImages } from './image-audit.mjs'

export const IMAGE_BYTES_TARGET = 700 * 1024
export const OVERSIZE_TARGET = 2.5
const PHONE = { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }

/**
 * Loads every page of `paths` on `origin` in a fresh phone context and returns one row per page.
 * @param {string} origin
 * @param {string[]} paths
 */
export async function measureImages(origin, paths) {
  const browser = await chromium.launch({ executablePath: await chromiumPath(), args: CHROMIUM_ARGS })
  const rows = []
  try {
    for (const pagePath of paths) {
      const context = await browser.newContext({ ...PHONE, serviceWorkers: 'block' })
      const page = await context.newPage()
      await page.goto(new URL(pagePath, origin).href, { waitUntil: 'load', timeout: 120_000 })
      const audit = await scrollThroughImages(page, { stepTimeoutMs: 120_000 })
      await context.close()
      const worst = audit.images.reduce((max, image) => (image.oversize > max.oversize ? image : max), { oversize: 0, className: '', src: '' })
      const broken = audit.images.filter((image) => image.naturalWidth === 0).length
      rows.push({
        page: pagePath,
        images: audit.images.length,
        broken,
        'image KB': Math.round(audit.imageBytes / 1024),
        'max oversize': Number(worst.oversize.toFixed(2)),
        'largest on': worst.className.split(' ')[0] || 'img',
      })
    }
  } finally {
    await browser.close()
  }
  return rows
}

/** One line saying whether `rows` meet the targets. */
export function imageVerdict(rows) {
  const heaviest = Math.max(...rows.map((row) => row['image KB']))
  const oversize = Math.max(...rows.map((row) => row['max oversize']))
  const broken = rows.reduce((sum, row) => sum + row.broken, 0)
  const mark = (ok) => (ok ? 'met' : 'MISSED')
  return `heaviest page ${heaviest} KB of images (target ≤ ${IMAGE_BYTES_TARGET / 1024} KB: ${mark(heaviest * 1024 <= IMAGE_BYTES_TARGET)}); largest oversize ${oversize}× (target ≤ ${OVERSIZE_TARGET}×: ${mark(oversize <= OVERSIZE_TARGET)}); ${broken} broken`
}
