/**
 * Step `images` (`npm run bench:images`), and `camera-images` (camera-images.mjs) with the same
 * figures for camera uploads: what a phone (375 px, DPR 2, a fresh browser cache) receives in
 * images while scrolling each of the 12 pages to the bottom, and the largest oversize ratio among
 * the images it had in view (natural width over displayed width × DPR), with the image that has
 * it, measured by scripts/lib/image-audit.mjs as the browser tests do; then Lighthouse on `/` and
 * `/en/about` (BENCH_LIGHTHOUSE_PATH for others), unless the run skips the lighthouse step. Each
 * site is visited once before it is measured, so the route's transforms are cached as they are at
 * the edge after a photo's first visitor (the first transform of a 4000-px photo is local sharp
 * CPU time, not a visit).
 *
 * Targets: at most 700 KB of images per page with camera uploads, no image over 2.5×.
 */
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, chromiumPath } from '../lib/chromium-path.mjs'
import { scrollThroughImages } from '../lib/image-audit.mjs'
import { runLighthouse } from './lighthouse.mjs'
import { everyPage, pathList } from './shared.mjs'

export const IMAGE_BYTES_TARGET = 700 * 1024
export const OVERSIZE_TARGET = 2.5
/** The pages Lighthouse loads in the image steps, for each content. */
const IMAGE_LIGHTHOUSE_PATHS = pathList(process.env.BENCH_LIGHTHOUSE_PATH, '/,/en/about')
const PHONE = {
  viewport: { width: 375, height: 812 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
}

export const step = {
  name: 'images',
  title: 'Images on a phone, bundled content',
  usesSite: true,
  async run({ site, report, withLighthouse }) {
    await imageFigures('bundled content', site.origin, { report, withLighthouse })
  },
}

/**
 * The figures of one content: images on a phone on every page, then Lighthouse.
 * @param {string} content what the site shows, for the captions
 * @param {string} origin the site
 */
export async function imageFigures(content, origin, { report, withLighthouse }) {
  const paths = everyPage()
  console.log(
    `\nImages on a phone (375 px, DPR 2, empty browser cache), ${content}; visiting every page once first...`
  )
  await measureImages(origin, paths)
  const rows = await measureImages(origin, paths)
  report.table(rows)
  report.text(`${content}: ${imageVerdict(rows)}`)
  if (!withLighthouse) return
  const medians = []
  for (const pagePath of IMAGE_LIGHTHOUSE_PATHS)
    medians.push({
      content,
      page: pagePath,
      ...(await runLighthouse(new URL(pagePath, origin).href)),
    })
  console.log(`\nLighthouse, ${content}, the median run of each page:`)
  report.table(medians)
}

/**
 * Loads every page of `paths` on `origin` in a fresh phone context and returns one row per page.
 * @param {string} origin
 * @param {string[]} paths
 */
export async function measureImages(origin, paths) {
  const browser = await chromium.launch({
    executablePath: await chromiumPath(),
    args: CHROMIUM_ARGS,
  })
  const rows = []
  try {
    for (const pagePath of paths) {
      const context = await browser.newContext({ ...PHONE, serviceWorkers: 'block' })
      const page = await context.newPage()
      await page.goto(new URL(pagePath, origin).href, { waitUntil: 'load', timeout: 120_000 })
      const audit = await scrollThroughImages(page, { stepTimeoutMs: 120_000 })
      await context.close()
      const worst = audit.images.reduce(
        (max, image) => (image.oversize > max.oversize ? image : max),
        { oversize: 0, className: '', src: '' }
      )
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
