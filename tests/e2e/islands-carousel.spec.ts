/**
 * The home page's enterprises carousel (spec sections 2 and 9): Swiper takes over the server's
 * scroll-snap list without moving it, shows 1, 2 or 3 slides by width, loops, autoplays every
 * 5 s unless the visitor prefers reduced motion, and has arrows on desktops only, named in the
 * page's language. The seed content has 5 enterprises. The island hydrates only when its section
 * nears the viewport (client/islands/registry.ts), so every test scrolls to it first.
 */
import { en } from '../../src/shared/i18n/en'
import { hy } from '../../src/shared/i18n/hy'
import { ru } from '../../src/shared/i18n/ru'
import { expect, gotoLoaded, scrollToCarousel, test, type Page } from '../support/e2e/fixtures'

const HOME = [
  { lng: 'hy', path: '/', t: hy },
  { lng: 'en', path: '/en', t: en },
  { lng: 'ru', path: '/ru', t: ru },
] as const
const SLIDES = 5
/** Each width on a home page of its own language: the arrows' names are checked in each. */
const WIDTHS = [
  { width: 375, perView: 1, arrows: false, home: HOME[0] },
  { width: 800, perView: 2, arrows: false, home: HOME[1] },
  { width: 1280, perView: 3, arrows: true, home: HOME[2] },
] as const

/** Opens a home page with the carousel scrolled into view and hydrated. */
async function openCarousel(page: Page, path: string): Promise<void> {
  await gotoLoaded(page, path)
  await scrollToCarousel(page)
}

/**
 * The real index (0-based, in content order) of the active slide, or -1 while a transition runs:
 * a looping Swiper ignores arrows until the slide has settled.
 */
async function activeSlide(page: Page): Promise<number> {
  return page.locator('.carousel').evaluate((element) => {
    const { swiper } = element as unknown as { swiper: { animating: boolean; realIndex: number } }
    return swiper.animating ? -1 : swiper.realIndex
  })
}

/** The active slide's real index once no transition runs. */
async function settledSlide(page: Page): Promise<number> {
  let index = -1
  await expect.poll(async () => (index = await activeSlide(page))).toBeGreaterThanOrEqual(0)
  return index
}

/** Takes focus away from the control that has it: focus in the carousel pauses the autoplay. */
async function blur(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
}

/** The carousel's size, and where its first fully shown slide sits in it. */
async function geometry(page: Page) {
  return page.evaluate(() => {
    const carousel = document.querySelector('.carousel')!.getBoundingClientRect()
    const slides = [...document.querySelectorAll('.carousel__slide')].map((slide) =>
      slide.getBoundingClientRect()
    )
    const shown = slides.filter(
      (slide) => slide.left >= carousel.left - 1 && slide.right <= carousel.right + 1
    )
    const first = shown.sort((a, b) => a.left - b.left)[0]!
    const round = (value: number) => Math.round(value * 10) / 10
    return {
      carousel: [carousel.height, carousel.width].map(round),
      first: [first.left - carousel.left, first.top - carousel.top, first.width, first.height].map(
        round
      ),
      shown: shown.length,
    }
  })
}

for (const { width, perView, arrows, home } of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } })

    test(`initialises Swiper with ${perView} slide(s) per view and arrows ${arrows ? 'shown' : 'hidden'}, taking over the server-rendered list without moving it`, async ({
      page,
      noJsPage,
      pageProblems,
    }) => {
      pageProblems.allow(/\/assets\/.+\.js$/) // the entry's module preload, refused with JavaScript off
      await noJsPage.goto(home.path)
      await noJsPage.locator('.carousel').scrollIntoViewIfNeeded()
      await openCarousel(page, home.path)
      const carousel = page.locator('.carousel')

      await expect(carousel).toHaveClass(/\bswiper-initialized\b/)
      await carousel.scrollIntoViewIfNeeded()
      const taken = await geometry(page)
      expect(taken).toEqual(await geometry(noJsPage))
      expect(
        await carousel.evaluate(
          (element) =>
            (element as unknown as { swiper: { params: { slidesPerView: number } } }).swiper.params
              .slidesPerView
        )
      ).toBe(perView)
      expect(taken.shown).toBe(perView)
      for (const name of [home.t.ui.previousSlide, home.t.ui.nextSlide]) {
        const arrow = carousel.getByRole('button', { name, exact: true, includeHidden: true })
        await expect(arrow).toHaveCount(1)
        await expect(arrow).toBeVisible({ visible: arrows })
      }
    })
  })
}

for (const width of [1024, 1280, 1920]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } })

    test('puts the arrows on the pictures, clear of the cards’ text', async ({ page }) => {
      await openCarousel(page, '/')
      await expect(page.locator('.carousel')).toHaveClass(/\bswiper-initialized\b/)
      const boxes = await page.evaluate(() => {
        const box = (element: Element) => {
          const { top, bottom } = element.getBoundingClientRect()
          return { top, bottom, middle: (top + bottom) / 2 }
        }
        const carousel = document.querySelector('.carousel')!.getBoundingClientRect()
        const shown = [...document.querySelectorAll('.carousel__slide')].find(
          (slide) => slide.getBoundingClientRect().left >= carousel.left - 1
        )!
        return {
          picture: box(shown.querySelector('.enterprise-card__image')!),
          text: box(shown.querySelector('.enterprise-card__body')!),
          arrows: [...document.querySelectorAll('.carousel__arrow')].map(box),
        }
      })
      expect(boxes.arrows).toHaveLength(2)
      for (const arrow of boxes.arrows) {
        expect(arrow.bottom).toBeLessThanOrEqual(boxes.text.top)
        expect(arrow.top).toBeGreaterThanOrEqual(boxes.picture.top)
        expect(Math.abs(arrow.middle - boxes.picture.middle)).toBeLessThanOrEqual(2)
      }
    })
  })
}

// In one language: the loop is Swiper's, the same in each; the arrows' names are checked above.
test('loops both ways with the arrows', async ({ page }) => {
  await openCarousel(page, '/en')
  const carousel = page.locator('.carousel')
  await expect(carousel).toHaveClass(/\bswiper-initialized\b/)
  // Hovering or focusing the carousel pauses the autoplay, so only the arrows move it from here on.
  await carousel.getByRole('button', { name: en.ui.previousSlide }).hover()
  const start = await settledSlide(page)
  await carousel.getByRole('button', { name: en.ui.previousSlide }).click()
  await expect.poll(() => activeSlide(page)).toBe((start + SLIDES - 1) % SLIDES)

  // Five steps forward pass the last slide and come back round to the start.
  for (let step = 0; step < SLIDES; step += 1) {
    await carousel.getByRole('button', { name: en.ui.nextSlide }).click()
    await expect.poll(() => activeSlide(page)).toBe((start + step) % SLIDES)
  }
})

test('autoplays every 5 s, and its button pauses and resumes it', async ({ page }) => {
  // The page's timers on a clock the test can move on: time still flows as usual.
  await page.clock.install()
  await openCarousel(page, '/en')
  const carousel = page.locator('.carousel')
  await expect(carousel).toHaveClass(/\bswiper-initialized\b/)
  expect(
    await carousel.evaluate(
      (element) =>
        (element as unknown as { swiper: { params: { autoplay: { delay: number } } } }).swiper
          .params.autoplay.delay
    )
  ).toBe(5000)

  const start = await settledSlide(page)
  // A deadline, not the autoplay's pace: a busy machine may draw the 5-s step late.
  await expect.poll(() => activeSlide(page), { timeout: 20_000 }).not.toBe(start)

  await carousel.getByRole('button', { name: en.ui.pauseCarousel }).click()
  const paused = await settledSlide(page)
  await page.mouse.move(0, 0)
  await blur(page)
  // Every timer of the next 6 s fires now: the autoplay's step, were it running, among them.
  await page.clock.runFor(6_000)
  expect(await settledSlide(page)).toBe(paused)

  await carousel.getByRole('button', { name: en.ui.playCarousel }).click()
  await page.mouse.move(0, 0)
  await blur(page)
  await expect.poll(() => activeSlide(page), { timeout: 20_000 }).not.toBe(paused)
})

test.describe('when the visitor prefers reduced motion', () => {
  test.use({ reducedMotion: 'reduce' })

  test('does not autoplay and offers no pause button', async ({ page }) => {
    await page.clock.install()
    await openCarousel(page, '/en')
    const carousel = page.locator('.carousel')
    await expect(carousel).toHaveClass(/\bswiper-initialized\b/)
    await expect(carousel.getByRole('button', { name: en.ui.pauseCarousel })).toHaveCount(0)

    const start = await settledSlide(page)
    // Every timer of the next 6 s fires now: an autoplay's step among them, were there one.
    await page.clock.runFor(6_000)
    expect(await settledSlide(page)).toBe(start)
    expect(
      await carousel.evaluate(
        (element) =>
          (element as unknown as { swiper: { autoplay: { running: boolean } } }).swiper.autoplay
            .running
      )
    ).toBe(false)
  })
})

test('is a plain scrollable list of every slide without JavaScript', async ({
  noJsPage,
  pageProblems,
}) => {
  pageProblems.allow(/\/assets\/.+\.js$/)
  await noJsPage.goto('/ru')
  const track = noJsPage.locator('.carousel__track')

  await expect(track.locator('.carousel__slide')).toHaveCount(SLIDES)
  await expect(noJsPage.locator('.carousel__controls')).toBeHidden()
  expect(await track.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true)
  await track.scrollIntoViewIfNeeded()
  await track.evaluate((element) =>
    element.scrollTo({ left: element.scrollWidth, behavior: 'instant' })
  )
  await expect(track.locator('.carousel__slide').last()).toBeInViewport({ ratio: 0.99 })
})
