/**
 * Every page in hy, en and ru, on a phone (375 px) and a desktop (1280 px), in every engine
 * (tests/e2e/engines): nothing overflows sideways, every image a visitor scrolls past loads, the
 * banner is the page's one h1 and its photo is fetched first, and the page logs no error (the
 * `visitor` fixture fails the test on any). Each run leaves full-page screenshots in
 * tests/e2e/screenshots/<engine>-<language>-<page>-<phone|desktop>.png to look at.
 */
import { PAGE_ADDRESSES } from '../support/page-addresses'
import { expect, test } from './engines/engine-fixtures'
import { attributes, horizontalOverflow, isShown, scrollThroughImages } from './engines/in-page'
import { DESKTOP, PHONE } from './engines/visitor'

const SCREENS = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const

/** '/' -> 'hy-home', '/en/about' -> 'en-about': the screenshot's name. */
function pageName(address: string): string {
  const [, first = '', second = ''] = address.split('/')
  const prefixed = first === 'en' || first === 'ru'
  return `${prefixed ? first : 'hy'}-${(prefixed ? second : first) || 'home'}`
}

for (const [device, screen] of SCREENS) {
  test.describe(`on a ${device}`, () => {
    // The first visit of a fresh server transforms every image it shows (sharp, on a shared machine).
    test.describe.configure({ timeout: 90_000 })

    for (const address of PAGE_ADDRESSES) {
      test(`${address} fits the screen, loads every image it shows and logs no error`, async ({ visitor }) => {
        test.skip(visitor.narrowest > screen.width, `${visitor.name} cannot show a ${screen.width}-px screen (at least ${visitor.narrowest} px)`)
        expect(await visitor.open(address, { screen })).toBe(200)
        const images = await visitor.run(scrollThroughImages, 30_000)
        expect(images.length, 'images seen while scrolling').toBeGreaterThan(0)
        expect(images.filter((image) => !image.complete).map((image) => image.src), 'images still loading').toEqual([])
        expect(images.filter((image) => image.naturalWidth === 0).map((image) => image.src), 'broken images').toEqual([])
        expect(await visitor.run(horizontalOverflow, null), 'horizontal overflow in px').toBeLessThanOrEqual(0)

        // The hero is the page's largest paint: requested eagerly, first, with high priority.
        const [priority, loading] = await visitor.run(attributes, [['.page-banner__image', 'fetchpriority'], ['.page-banner__image', 'loading']])
        expect(priority).toBe('high')
        expect(loading).not.toBe('lazy')
        expect(await visitor.run(() => document.querySelectorAll('h1').length, null)).toBe(1)
        expect(await visitor.run(isShown, 'h1')).toBe(true)

        await visitor.screenshot(`${visitor.engine}-${pageName(address)}-${device}`)
      })
    }
  })
}
