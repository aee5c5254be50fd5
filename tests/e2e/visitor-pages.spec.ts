/**
 * Every page in hy, en and ru, on a phone (375 px) and a desktop (1280 px), in every engine
 * (tests/support/e2e/engines): it answers 200 at its own address, in its language, with the header, nav,
 * main and footer landmarks (spec section 2's routes); nothing overflows sideways; every image a
 * visitor scrolls past loads, through the image route (the logo aside); the banner is the page's
 * one h1 and its photo is fetched first; and the page, its islands hydrating as the scroll through
 * it reaches them, logs no error (the `visitor` fixture fails the test on any; React reports a
 * hydration mismatch as one). A run that asks (E2E_SCREENSHOTS=1, `npm run test:screenshots`) leaves
 * full-page screenshots in tests/e2e/screenshots/<engine>-<language>-<page>-<phone|desktop>.png to look at.
 */
import { PAGE_ADDRESSES } from '../support/page-addresses'
import { expect, test } from '../support/e2e/engines/engine-fixtures'
import {
  attributes,
  horizontalOverflow,
  isShown,
  renderSkippedParts,
  scrollThroughImages,
} from '../support/e2e/engines/in-page'
import { DESKTOP, PHONE } from '../support/e2e/engines/visitor'
import { IMAGE_WAIT_MS } from '../support/e2e/fixtures'

const SCREENS = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const

/** '/' -> ['hy', 'home'], '/en/about' -> ['en', 'about']. */
function languageAndPage(address: string): [string, string] {
  const segments = address.split('/').slice(1)
  const prefixed = segments[0] === 'en' || segments[0] === 'ru'
  const page = (prefixed ? segments.slice(1) : segments).filter(Boolean).join('-')
  // A project's page is named for its path ('enterprises-3-northern-...'), not as the list page.
  return [prefixed ? segments[0]! : 'hy', page || 'home']
}

for (const [device, screen] of SCREENS) {
  test.describe(`on a ${device}`, () => {
    // The first visit of a fresh server transforms every image it shows (sharp, on a shared
    // machine): the load may wait one transform, the scroll through the images two, and the
    // screenshot has its own bound (tests/support/e2e/engines/playwright-visitor.ts).
    test.describe.configure({ timeout: 90_000 + 3 * IMAGE_WAIT_MS })

    for (const address of PAGE_ADDRESSES) {
      test(`${address} fits the screen, loads every image it shows and logs no error`, async ({
        visitor,
      }) => {
        test.skip(
          visitor.narrowest > screen.width,
          `${visitor.name} cannot show a ${screen.width}-px screen (at least ${visitor.narrowest} px)`
        )
        expect(await visitor.open(address, { screen })).toBe(200)
        const [language, pageName] = languageAndPage(address)
        const shown = await visitor.run(
          () => ({
            path: location.pathname,
            lang: document.documentElement.lang,
            header: document.querySelectorAll('body header:not(main header)').length > 0,
            nav: document.querySelectorAll('nav').length > 0,
            main: document.querySelectorAll('main').length,
            footer: document.querySelectorAll('body footer:not(main footer)').length > 0,
          }),
          null
        )
        expect(shown, 'address, language and landmarks').toEqual({
          path: address,
          lang: language,
          header: true,
          nav: true,
          main: 1,
          footer: true,
        })
        const images = await visitor.run(scrollThroughImages, {
          stepMs: IMAGE_WAIT_MS + 15_000,
          walkMs: 2 * IMAGE_WAIT_MS,
        })
        expect(images.length, 'images seen while scrolling').toBeGreaterThan(0)
        expect(
          images.filter((image) => !image.complete).map((image) => image.src),
          'images still loading'
        ).toEqual([])
        expect(
          images.filter((image) => image.naturalWidth === 0).map((image) => image.src),
          'broken images'
        ).toEqual([])
        const elsewhere = images.filter(
          (image) =>
            !new URL(image.src).pathname.startsWith('/_image') &&
            new URL(image.src).pathname !== '/logo.png'
        )
        expect(
          elsewhere.map((image) => image.src),
          'images not served through the image route'
        ).toEqual([])
        expect(
          await visitor.run(horizontalOverflow, null),
          'horizontal overflow in px'
        ).toBeLessThanOrEqual(0)

        // The hero is the page's largest paint: requested eagerly, first, with high priority.
        const [priority, loading] = await visitor.run(attributes, [
          ['.page-banner__image', 'fetchpriority'],
          ['.page-banner__image', 'loading'],
        ])
        expect(priority).toBe('high')
        expect(loading).not.toBe('lazy')
        expect(await visitor.run(() => document.querySelectorAll('h1').length, null)).toBe(1)
        expect(await visitor.run(isShown, 'h1')).toBe(true)

        await visitor.run(renderSkippedParts, null)
        await visitor.screenshot(`${visitor.engine}-${language}-${pageName}-${device}`)
      })
    }
  })
}
