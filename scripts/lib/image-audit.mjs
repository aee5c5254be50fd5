/**
 * What a visitor's browser fetches and shows of a page's images, measured in the page itself while
 * scrolling it to the bottom as a visitor would: shared by tests/e2e/images.spec.ts (nothing
 * broken) and scripts/bench/images.mjs (image bytes, oversize ratio), so both measure the same thing.
 *
 * At each step it waits for what the visitor sees: every image in the viewport finished (loaded
 * or failed). Images never in the viewport (carousel slides off to the side) are not judged. An
 * image that comes into view between that wait and the look (an autoplaying carousel's next slide)
 * is waited for at the end, so that it is judged loaded or broken, never half-way.
 */

/**
 * @typedef {object} SeenImage
 * @property {string} src the address the browser chose (currentSrc)
 * @property {string} className
 * @property {number} naturalWidth 0 for a broken image (density-corrected: for a srcset candidate,
 *   the browser reports the width `sizes` gave it, not the file's)
 * @property {boolean} complete false for one still loading when the last step's time ran out
 * @property {number} pixelWidth the file's own width in pixels
 * @property {number} displayedWidth the content box's width in CSS px
 * @property {number} oversize pixelWidth / (displayedWidth × devicePixelRatio)
 */

/**
 * @typedef {object} ImageAudit
 * @property {SeenImage[]} images every image that was in the viewport at some step
 * @property {number} imageBytes bytes transferred for images (headers included), from Resource Timing
 * @property {number} devicePixelRatio
 */

/**
 * Scrolls `page` (already loaded) from top to bottom in steps of 80 % of the viewport.
 * @param {import('@playwright/test').Page} page
 * @param {{ stepTimeoutMs?: number }} [options] how long the images in view may take at each step
 * @returns {Promise<ImageAudit>}
 */
export async function scrollThroughImages(page, { stepTimeoutMs = 30_000 } = {}) {
  await page.evaluate(() => {
    ;/** @type {any} */ (window).__imagesSeen = new Set()
  })
  for (let top = 0; ;) {
    await page.evaluate((y) => window.scrollTo(0, y), top)
    await page.waitForFunction(inViewSettled, undefined, { timeout: stepTimeoutMs, polling: 100 })
    const { end, step } = await page.evaluate(() => {
      const seen = /** @type {any} */ (window).__imagesSeen
      for (const image of document.images) {
        const box = image.getBoundingClientRect()
        if (
          box.width > 0 &&
          box.bottom > 0 &&
          box.top < innerHeight &&
          box.right > 0 &&
          box.left < innerWidth
        )
          seen.add(image)
      }
      return {
        end: scrollY + innerHeight >= document.documentElement.scrollHeight - 1,
        step: Math.round(innerHeight * 0.8),
      }
    })
    if (end) break
    top += step
  }
  await page
    .waitForFunction(
      () => [.../** @type {any} */ (window).__imagesSeen].every((image) => image.complete),
      undefined,
      { timeout: stepTimeoutMs, polling: 100 }
    )
    .catch(() => undefined) // judged below: `complete` false
  return page.evaluate(async () => {
    const ratio = window.devicePixelRatio
    /** @type {HTMLImageElement[]} */
    const seen = [.../** @type {any} */ (window).__imagesSeen]
    const images = await Promise.all(
      seen.map(async (image) => {
        const style = getComputedStyle(image)
        const displayedWidth =
          image.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
        const src = image.currentSrc || image.src
        // The file's own width: an <img> without srcset reports it (from the browser's cache).
        const probe = new Image()
        probe.src = src
        const pixelWidth =
          image.naturalWidth > 0
            ? await probe.decode().then(
                () => probe.naturalWidth,
                () => 0
              )
            : 0
        return {
          src,
          className: image.className,
          naturalWidth: image.naturalWidth,
          complete: image.complete,
          pixelWidth,
          displayedWidth,
          oversize: displayedWidth > 0 ? pixelWidth / (displayedWidth * ratio) : 0,
        }
      })
    )
    const imageBytes = performance
      .getEntriesByType('resource')
      .filter((entry) => /\/_image\?|\.(avif|webp|jpe?g|png|gif|svg)(\?|$)/i.test(entry.name))
      .reduce(
        (sum, entry) => sum + /** @type {PerformanceResourceTiming} */ (entry).transferSize,
        0
      )
    return { images, imageBytes, devicePixelRatio: ratio }
  })
}

/** In the page: whether every image in the viewport has finished, loaded or broken. */
function inViewSettled() {
  return [...document.images].every((image) => {
    const box = image.getBoundingClientRect()
    const inView =
      box.width > 0 &&
      box.bottom > 0 &&
      box.top < innerHeight &&
      box.right > 0 &&
      box.left < innerWidth
    return !inView || image.complete
  })
}
