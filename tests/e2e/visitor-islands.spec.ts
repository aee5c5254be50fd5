/**
 * The islands as a visitor uses them, in every engine (tests/support/e2e/engines): the language dropdown,
 * the phone menu, the back-to-top button and the carousel's arrows. islands.spec.ts,
 * islands-carousel.spec.ts and islands-toasts.spec.ts go further in Chromium (timing, history,
 * reduced motion, keyboard, drag).
 */
import { expect, test } from '../support/e2e/engines/engine-fixtures'
import { attributes, isShown } from '../support/e2e/engines/in-page'
import { PHONE, until } from '../support/e2e/engines/visitor'

const LANGUAGES = [
  { lng: 'hy', prefix: '', next: { lng: 'en', path: '/en/about' } },
  { lng: 'en', prefix: '/en', next: { lng: 'ru', path: '/ru/about' } },
  { lng: 'ru', prefix: '/ru', next: { lng: 'hy', path: '/about' } },
] as const

for (const { lng, prefix, next } of LANGUAGES) {
  test(`the language dropdown switches ${lng} to ${next.lng}, keeping the page, query and fragment`, async ({
    visitor,
  }) => {
    await visitor.open(`${prefix}/about?ref=e2e#mission`)
    // The first click also hydrates the dropdown (client/triggers.ts), then opens it.
    await visitor.click('.lang-dropdown__button')
    await until(
      visitor,
      (selector) => document.querySelector(selector)?.getAttribute('aria-expanded') === 'true',
      '.lang-dropdown__button',
      { what: 'the dropdown to open' }
    )
    await visitor.click(`.lang-dropdown__link[hreflang="${next.lng}"]`)
    await until(
      visitor,
      (path) =>
        location.pathname + location.search + location.hash === path &&
        document.readyState === 'complete',
      `${next.path}?ref=e2e#mission`,
      { what: 'the new address' }
    )
    await until(
      visitor,
      (lang) => document.documentElement?.lang === lang && document.readyState === 'complete',
      next.lng,
      { what: 'the page in the new language' }
    )
  })
}

test('the phone menu opens with its button and closes on Escape', async ({ visitor }) => {
  test.skip(
    visitor.narrowest > PHONE.width,
    `${visitor.name} cannot show a ${PHONE.width}-px screen`
  )
  await visitor.open('/ru/enterprises', { screen: PHONE })
  expect(await visitor.run(isShown, '#navbar-links')).toBe(false)
  await visitor.click('.navbar__toggle')
  await until(
    visitor,
    (selector) =>
      [...document.querySelectorAll(selector)].every(
        (link) => link.getBoundingClientRect().height > 0
      ),
    '#navbar-links a',
    { what: 'the menu links' }
  )
  expect(await visitor.run(attributes, [['.navbar__toggle', 'aria-expanded']])).toEqual(['true'])
  await visitor.press('Escape')
  await until(
    visitor,
    (selector) => document.querySelector(selector)!.getBoundingClientRect().height === 0,
    '#navbar-links',
    { what: 'the menu to close' }
  )
})

test('the back-to-top button appears once the visitor has scrolled and takes them to the top', async ({
  visitor,
}) => {
  await visitor.open('/en')
  expect(await visitor.run(isShown, '.back-to-top')).toBe(false)
  await visitor.run(() => window.scrollTo({ top: 1500, behavior: 'instant' }), null)
  await until(visitor, isShown, '.back-to-top', { what: 'the back-to-top button' })
  await visitor.click('.back-to-top')
  await until(visitor, () => scrollY === 0, null, { what: 'the top of the page' })
  await until(
    visitor,
    (selector) => !document.querySelector(selector)!.checkVisibility(),
    '.back-to-top',
    { what: 'the button to hide' }
  )
})

test('the carousel hydrates near the viewport, and its arrow moves it one slide on', async ({
  visitor,
}) => {
  await visitor.open('/en')
  await visitor.run(
    () =>
      document.querySelector('.carousel')!.scrollIntoView({ block: 'center', behavior: 'instant' }),
    null
  )
  await until(
    visitor,
    () => document.querySelector('.carousel')!.classList.contains('swiper-initialized'),
    null,
    { what: 'Swiper to take the carousel over' }
  )
  // Paused first, so that only the arrow moves it.
  await visitor.click('.carousel__play')
  const settled = () =>
    until(
      visitor,
      () => {
        const { swiper } = document.querySelector('.carousel') as unknown as {
          swiper: { realIndex: number; animating: boolean; slides: unknown[] }
        }
        return swiper.animating
          ? null
          : {
              index: swiper.realIndex,
              slides: document.querySelectorAll('.carousel__slide:not(.swiper-slide-duplicate)')
                .length,
            }
      },
      null,
      { what: 'the carousel to settle' }
    )
  const start = await settled()
  await visitor.click('.carousel__arrow--next')
  await until(
    visitor,
    (expected) => {
      const { swiper } = document.querySelector('.carousel') as unknown as {
        swiper: { realIndex: number; animating: boolean }
      }
      return !swiper.animating && swiper.realIndex === expected
    },
    (start.index + 1) % start.slides,
    { what: 'the next slide' }
  )
})
