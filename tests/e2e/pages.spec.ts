/**
 * The four pages as a visitor's browser shows them, in hy, en and ru, on a phone (375 px) and a
 * desktop (1280 px): nothing overflows sideways, every image a visitor sees loads (the lazy ones
 * once scrolled to; not the ones the browser may rightly defer), and the page logs no error (the `page` fixture fails the test on any). Each run
 * leaves full-page screenshots in tests/e2e/screenshots/ to look at.
 */
import { desktop, expect, gotoAndHydrate, phone, screenshot, test, type Page } from './fixtures'

const LANGUAGES = [
  { prefix: '', lang: 'hy' },
  { prefix: '/en', lang: 'en' },
  { prefix: '/ru', lang: 'ru' },
] as const

const PAGES = [
  { path: '/', name: 'home' },
  { path: '/about', name: 'about' },
  { path: '/enterprises', name: 'enterprises' },
  { path: '/contact-us', name: 'contact' },
] as const

const DEVICES = [
  { device: 'phone', options: phone },
  { device: 'desktop', options: desktop },
] as const

/**
 * Scrolls to the bottom a screen at a time, then back to the top, as a visitor reading the page
 * would, and returns the indexes (in document.images) of the images they would have seen: those
 * an IntersectionObserver reported in the viewport at some point, so not an image clipped away by
 * its container (a carousel's slides off to the side) nor one that is not rendered at all.
 */
async function scrollThrough(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const images = Array.from(document.images)
    const seen = new Set<Element>()
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) if (entry.isIntersecting) seen.add(entry.target)
    })
    for (const image of images) observer.observe(image)
    // An observer reports after the next rendering; two frames and a pause let it catch up.
    const settle = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 60))))
    const step = Math.round(window.innerHeight * 0.8)
    for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
      window.scrollTo({ top: y, behavior: 'instant' })
      await settle()
    }
    window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' })
    await settle()
    window.scrollTo({ top: 0, behavior: 'instant' })
    await settle()
    observer.disconnect()
    return images.flatMap((image, index) => (seen.has(image) ? [index] : []))
  })
}

/**
 * Whether every image a visitor gets has finished loading: each eager one (the browser must fetch
 * it whatever the scroll), and each lazy one the visitor scrolled past. A lazy image that never
 * came into view is the browser's to defer: newer Chromium rightly leaves a carousel's off-screen
 * slides alone.
 */
async function visibleImagesComplete(page: Page, seen: number[]): Promise<boolean> {
  return page.evaluate(
    (seen) =>
      Array.from(document.images).every((image, index) => image.complete || (image.loading === 'lazy' && !seen.includes(index))),
    seen,
  )
}

/** Images that finished loading without a picture, with their addresses. */
async function brokenImages(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.images)
      .filter((image) => image.complete && image.naturalWidth === 0)
      .map((image) => image.currentSrc || image.src),
  )
}

for (const { device, options } of DEVICES) {
  test.describe(`on a ${device}`, () => {
    test.use(options)

    for (const { prefix, lang } of LANGUAGES) {
      for (const { path: pagePath, name } of PAGES) {
        const path = pagePath === '/' ? prefix || '/' : `${prefix}${pagePath}`

        test(`${path} in ${lang} fits the screen and loads every image`, async ({ page }) => {
          await gotoAndHydrate(page, path)
          const seen = await scrollThrough(page)
          expect(seen.length, 'images seen while scrolling').toBeGreaterThan(0)
          await expect.poll(() => visibleImagesComplete(page, seen), { timeout: 15_000 }).toBe(true)

          expect(await brokenImages(page)).toEqual([])
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
          expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0)

          // The hero is the page's largest paint: requested eagerly, first, with high priority.
          const hero = page.locator('.page-banner__image')
          await expect(hero).toHaveAttribute('fetchpriority', 'high')
          await expect(hero).not.toHaveAttribute('loading', 'lazy')
          await expect(page.locator('h1')).toHaveCount(1)
          await expect(page.locator('h1')).toBeVisible()

          // Decoded before the full-page shot, so no loaded image shows up blank in it. Only loaded
          // ones: decode() of a deferred lazy image waits for a load that never comes.
          await page.evaluate(() =>
            Promise.all(
              Array.from(document.images)
                .filter((image) => image.complete)
                .map((image) => image.decode().catch(() => undefined)),
            ),
          )
          await screenshot(page, `pages-${lang}-${name}-${device}`)
        })
      }
    }
  })
}
