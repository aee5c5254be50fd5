/**
 * The four pages as a visitor's browser shows them, in hy, en and ru, on a phone (375 px) and a
 * desktop (1280 px): nothing overflows sideways, every image loads (the lazy ones too, once
 * scrolled to), and the page logs no error (the `page` fixture fails the test on any). Each run
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

/** Scrolls to the bottom a screen at a time, so lazy images start loading, then back to the top. */
async function scrollThrough(page: Page) {
  await page.evaluate(async () => {
    const step = Math.round(window.innerHeight * 0.8)
    for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
      window.scrollTo({ top: y, behavior: 'instant' })
      await new Promise((resolve) => setTimeout(resolve, 60))
    }
    window.scrollTo({ top: 0, behavior: 'instant' })
  })
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
          await scrollThrough(page)
          await expect
            .poll(() => page.evaluate(() => Array.from(document.images).every((image) => image.complete)), { timeout: 15_000 })
            .toBe(true)

          expect(await brokenImages(page)).toEqual([])
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
          expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0)

          // The hero is the page's largest paint: requested eagerly, first, with high priority.
          const hero = page.locator('.page-banner__image')
          await expect(hero).toHaveAttribute('fetchpriority', 'high')
          await expect(hero).not.toHaveAttribute('loading', 'lazy')
          await expect(page.locator('h1')).toHaveCount(1)
          await expect(page.locator('h1')).toBeVisible()

          // Decoded before the full-page shot, so no loaded image shows up blank in it.
          await page.evaluate(() => Promise.all(Array.from(document.images).map((image) => image.decode().catch(() => undefined))))
          await screenshot(page, `pages-${lang}-${name}-${device}`)
        })
      }
    }
  })
}
