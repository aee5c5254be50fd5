/**
 * The shared islands in a browser (spec sections 2, 4 and 9): the language dropdown, the mobile
 * menu, the sticky navbar, the back-to-top button, the pages without JavaScript, and which pages
 * download the carousel. The dropdown switches each language to the next (hy, en, ru, hy); every other
 * behaviour runs in one language, the languages taking turns (docs/decisions/0034): the islands'
 * code is the same in each, only their names and the addresses differ, and those are checked in
 * every language by the switches here and by accessibility.spec.ts (visitor-islands.spec.ts, the
 * same behaviours in Firefox and WebKit, is left out in Chromium: docs/decisions/0053). The
 * carousel and the toasts have their own specs (islands-carousel, islands-toasts); every page
 * hydrating without a console error (how React reports a mismatch), on a phone and a desktop, is
 * visitor-pages.spec.ts.
 */
import { en } from '../../src/shared/i18n/en'
import { hy } from '../../src/shared/i18n/hy'
import { ru } from '../../src/shared/i18n/ru'
import { SAMPLE_PROJECT_KEY } from '../support/page-addresses'
import {
  expect,
  gotoLoaded,
  phone,
  scrollToCarousel,
  test,
  type Page,
} from '../support/e2e/fixtures'

const LANGUAGES = [
  { lng: 'hy', prefix: '', name: 'ՀԱՅԵՐԵՆ', t: hy },
  { lng: 'en', prefix: '/en', name: 'ENGLISH', t: en },
  { lng: 'ru', prefix: '/ru', name: 'РУССКИЙ', t: ru },
] as const

/** Where the page's clock starts when a test drives it. */
const CLOCK_START = new Date('2026-11-26T09:00:00Z').getTime()

/** '/en' + '/about'; '/en' + '/' is '/en', and '' + '/' is '/'. */
function localized(prefix: string, page: string): string {
  return page === '/' ? prefix || '/' : `${prefix}${page}`
}

/** Scrolls the window at once; the stylesheet's `scroll-behavior: smooth` would animate it. */
async function scrollTo(page: Page, top: number): Promise<void> {
  await page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), top)
}

/**
 * Who checks which behaviour: every behaviour below but the dropdown's switches runs in one
 * language, the languages taking turns, so that each language has its share and none is skipped.
 */
const [HY, EN, RU] = LANGUAGES

/**
 * Once every transition the last change started has ended, and the frames after it are drawn (so
 * a layout shift it caused has been reported): the moment "nothing moved" can be checked.
 */
async function transitionsEnded(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const frames = () =>
      new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    await frames()
    const finite = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)))
    await frames()
  })
}

test.describe('the language dropdown', () => {
  // Each language switches to the next (hy -> en -> ru -> hy): every page language's button and
  // every target's link once; the other three pairs run the same code with those same names.
  for (const [index, { lng, prefix, name, t }] of LANGUAGES.entries()) {
    const target = LANGUAGES[(index + 1) % LANGUAGES.length]!
    test(`in ${lng} switches to ${target.lng} keeping path, query and hash, replacing the history entry and storing the choice`, async ({
      page,
    }) => {
      await gotoLoaded(page, `${prefix}/about?ref=e2e#mission`)
      const entries = await page.evaluate(() => history.length)
      const button = page.getByRole('button', { name: `${t.ui.language}: ${name}` })
      // Every island's button is named in the page's language (hidden ones included).
      for (const label of [t.ui.menu, t.ui.backToTop])
        await expect(
          page.getByRole('button', { name: label, exact: true, includeHidden: true })
        ).toHaveCount(1)

      await expect(button).toHaveAttribute('aria-expanded', 'false')
      await button.click()
      await expect(button).toHaveAttribute('aria-expanded', 'true')
      await page.locator('.lang-dropdown').getByRole('link', { name: target.name }).click()

      await expect(page).toHaveURL(`${localized(target.prefix, '/about')}?ref=e2e#mission`)
      await expect(page.locator('html')).toHaveAttribute('lang', target.lng)
      expect(await page.evaluate(() => history.length)).toBe(entries)
      expect(await page.evaluate(() => localStorage.getItem('selectedLanguage'))).toBe(target.lng)
    })
  }

  test(`in ${HY.lng} closes on Escape and gives focus back to its button`, async ({ page }) => {
    const { prefix, name, t } = HY
    await gotoLoaded(page, localized(prefix, '/'))
    const button = page.getByRole('button', { name: `${t.ui.language}: ${name}` })

    await button.click()
    await expect(button).toHaveAttribute('aria-expanded', 'true')
    await page.locator('.lang-dropdown').getByRole('link', { name: LANGUAGES[1].name }).focus()
    await page.keyboard.press('Escape')

    await expect(button).toHaveAttribute('aria-expanded', 'false')
    await expect(button).toBeFocused()
    await expect(
      page.locator('.lang-dropdown').getByRole('link', { name: LANGUAGES[1].name })
    ).toBeHidden()
  })
})

test.describe('the navbar', () => {
  test.describe('on a phone', () => {
    test.use(phone)

    test(`in ${EN.lng} opens and closes the menu with the collapse button, and closes it on Escape`, async ({
      page,
    }) => {
      const { prefix, t } = EN
      await gotoLoaded(page, localized(prefix, '/about'))
      const toggle = page.getByRole('button', { name: t.ui.menu, exact: true })
      const links = page.locator('#navbar-links')

      await expect(toggle).toHaveAttribute('aria-expanded', 'false')
      await expect(toggle).toHaveAttribute('aria-controls', 'navbar-links')
      await expect(links).toBeHidden()

      await toggle.click()
      await expect(toggle).toHaveAttribute('aria-expanded', 'true')
      await expect(links.getByRole('link')).toHaveCount(4)
      for (const link of await links.getByRole('link').all()) await expect(link).toBeVisible()

      await toggle.click()
      await expect(toggle).toHaveAttribute('aria-expanded', 'false')
      await expect(links).toBeHidden()

      await toggle.click()
      await links.getByRole('link').first().focus()
      await page.keyboard.press('Escape')
      await expect(links).toBeHidden()
      await expect(toggle).toBeFocused()
    })
  })

  test(`in ${HY.lng} shows the page links and no collapse button on a desktop`, async ({
    page,
  }) => {
    const { prefix, t } = HY
    await gotoLoaded(page, localized(prefix, '/'))
    await expect(page.getByRole('button', { name: t.ui.menu, exact: true })).toBeHidden()
    for (const link of await page.locator('#navbar-links').getByRole('link').all())
      await expect(link).toBeVisible()
  })

  test(`in ${RU.lng} styles the navbar sticky from 50 px of scrolling, moving nothing on the page`, async ({
    page,
  }) => {
    const { prefix } = RU
    await gotoLoaded(page, localized(prefix, '/about'))
    const navbar = page.locator('nav.navbar')
    const layout = () =>
      page.evaluate(() => ({
        header: document.querySelector('.site-header')!.getBoundingClientRect().height,
        main: document.querySelector('main')!.getBoundingClientRect().top + window.scrollY,
      }))
    // A swap to a downloaded font is not this test's: it observes once every face the stylesheet
    // declares is in. Waiting for document.fonts.status alone is not enough: a face no text has
    // asked for yet (text further down, or drawn by an island) loads when the scroll reaches it,
    // and its swap nudged the links by 2 px in one run of the suite.
    await page.evaluate(async () => {
      await Promise.all([...document.fonts].map((face) => face.load().catch(() => undefined)))
      await document.fonts.ready
      // Two frames, so the swap is painted (and reported, if it shifts) before the observer starts.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    })
    const before = await layout()
    await page.evaluate(() => {
      const shifts: string[] = ((window as unknown as { shifts: string[] }).shifts = [])
      type Shift = PerformanceEntry & {
        value: number
        sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[]
      }
      const describe = ({ node, previousRect, currentRect }: Shift['sources'][number]) =>
        `${node instanceof Element ? `${node.localName}.${node.className}` : node?.nodeName} ` +
        `${JSON.stringify(previousRect)} -> ${JSON.stringify(currentRect)}`
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Shift[])
          shifts.push(`${entry.value}: ${entry.sources.map(describe).join('; ')}`)
      }).observe({ type: 'layout-shift' })
    })

    await expect(navbar).not.toHaveClass(/\bis-sticky\b/)
    await scrollTo(page, 49)
    await expect(navbar).not.toHaveClass(/\bis-sticky\b/)
    await scrollTo(page, 50)
    await expect(navbar).toHaveClass(/\bis-sticky\b/)
    await transitionsEnded(page)
    expect(await layout()).toEqual(before)
    await scrollTo(page, 0)
    await expect(navbar).not.toHaveClass(/\bis-sticky\b/)
    await transitionsEnded(page)
    // Each shift with what moved, from where to where.
    expect(await page.evaluate(() => (window as unknown as { shifts: string[] }).shifts)).toEqual(
      []
    )
  })
})

test.describe('the back-to-top button', () => {
  test(`in ${EN.lng} appears after 500 px and scrolls to the top in 500 ms`, async ({ page }) => {
    const { prefix, t } = EN
    // The scroll's frames run on the page's clock, which the test moves on (page.clock fakes
    // requestAnimationFrame and its timestamps too): where the page is at each moment does not
    // depend on how fast a busy machine draws frames.
    await page.clock.install({ time: CLOCK_START })
    await gotoLoaded(page, localized(prefix, '/'))
    const button = page.getByRole('button', { name: t.ui.backToTop })

    await expect(button).toBeHidden()
    await scrollTo(page, 500)
    await expect(button).toBeHidden()
    await scrollTo(page, 1500)
    await expect(button).toBeVisible()
    const box = await button.boundingBox()
    const viewport = page.viewportSize()!
    expect(box!.x).toBeGreaterThan(viewport.width / 2)
    expect(box!.y).toBeGreaterThan(viewport.height / 2)

    // Held from here (an hour on, past every timer of the page's load): only runFor moves it.
    await page.clock.pauseAt(CLOCK_START + 3_600_000)
    const start = await page.evaluate(() => scrollY)
    await page.evaluate(() => document.querySelector<HTMLButtonElement>('.back-to-top')!.click())
    // Where the page is every 50 ms of its clock after the click, to 650 ms.
    const at = new Map<number, number>()
    for (let ms = 50; ms <= 650; ms += 50) {
      await page.clock.runFor(50)
      at.set(ms, await page.evaluate(() => scrollY))
    }
    const seen = JSON.stringify([...at])
    test.info().annotations.push({ type: 'scrollY every 50 ms after the click', description: seen })
    // Eased from 1500 to the top: moving from the first frames, about halfway at 250 ms, still
    // on its way at 400 ms, and at the top from 500 ms on (550 here: the first frame comes up
    // to 16 ms after the click).
    expect(start).toBeGreaterThan(1400)
    expect([...at.values()], seen).toEqual([...at.values()].sort((a, b) => b - a))
    expect(at.get(50)!, seen).toBeLessThan(start)
    expect(at.get(250)!, seen).toBeGreaterThan(start / 4)
    expect(at.get(250)!, seen).toBeLessThan((start * 3) / 4)
    expect(at.get(400)!, seen).toBeGreaterThan(0)
    expect(
      [550, 600, 650].map((ms) => at.get(ms)),
      seen
    ).toEqual([0, 0, 0])
    await expect(button).toBeHidden()
  })

  test.describe('when the visitor prefers reduced motion', () => {
    test.use({ reducedMotion: 'reduce' })

    test(`in ${RU.lng} jumps to the top at once`, async ({ page }) => {
      const { prefix, t } = RU
      await gotoLoaded(page, localized(prefix, '/about'))
      await scrollTo(page, 1500)
      await page.getByRole('button', { name: t.ui.backToTop }).click()
      expect(await page.evaluate(() => scrollY)).toBe(0)
    })
  })
})

test.describe('without JavaScript', () => {
  test.use(phone)

  test(`in ${HY.lng} shows the page links without a collapse button, and the language links work`, async ({
    noJsPage,
    pageProblems,
  }) => {
    const { prefix, lng } = HY
    // With JavaScript off, Chromium refuses the entry's module preload ('csp'): expected here.
    pageProblems.allow(/\/assets\/.+\.js$/)
    const response = await noJsPage.goto(`${prefix}/about?ref=e2e`)
    expect(response?.status()).toBe(200)

    await expect(noJsPage.locator('.navbar__toggle')).toBeHidden()
    for (const link of await noJsPage.locator('#navbar-links').getByRole('link').all())
      await expect(link).toBeVisible()
    await expect(noJsPage.locator('.back-to-top')).toBeHidden()

    // The dropdown's menu opens on focus without JavaScript; its links are plain links.
    const target = LANGUAGES.find((other) => other.lng !== lng)!
    await noJsPage.locator('.lang-dropdown__button').focus()
    await noJsPage.locator('.lang-dropdown').getByRole('link', { name: target.name }).click()
    await expect(noJsPage).toHaveURL(localized(target.prefix, '/about'))
    await expect(noJsPage.locator('html')).toHaveAttribute('lang', target.lng)
  })
})

test.describe('hydration', () => {
  for (const path of ['/', '/en/about', '/ru/contact-us']) {
    test(`on ${path} fetches no script but the entry before the load event`, async ({ page }) => {
      await gotoLoaded(page, path)
      const { loadEventEnd, early } = await page.evaluate(() => {
        const [navigation] = performance.getEntriesByType(
          'navigation'
        ) as PerformanceNavigationTiming[]
        // What the server's head names: the entry module and its module preloads.
        const entry = new Set(
          [...document.querySelectorAll<HTMLScriptElement>('head script[src]')].map(
            (script) => script.src
          )
        )
        for (const link of document.querySelectorAll<HTMLLinkElement>(
          'head link[rel="modulepreload"]'
        ))
          entry.add(link.href)
        const scripts = (
          performance.getEntriesByType('resource') as PerformanceResourceTiming[]
        ).filter((resource) => new URL(resource.name).pathname.endsWith('.js'))
        return {
          loadEventEnd: navigation!.loadEventEnd,
          early: scripts
            .filter(
              (resource) =>
                resource.startTime < navigation!.loadEventEnd && !entry.has(resource.name)
            )
            .map((resource) => resource.name),
        }
      })
      expect(loadEventEnd).toBeGreaterThan(0)
      expect(early).toEqual([])
    })
  }

  test('evaluates React only once the visitor reaches for an island', async ({ page }) => {
    const islandChunks: string[] = []
    page.on('request', (request) => {
      const chunk =
        /\/assets\/(back-to-top|carousel|contact-form|language-dropdown|navbar-menu)-[\w-]+\.js$/.exec(
          request.url()
        )
      if (chunk) islandChunks.push(chunk[1]!)
    })
    await gotoLoaded(page, '/en/about')
    // The hydration runtime is prefetched once the page is idle, and not run: no island's chunk,
    // which imports it, has been asked for.
    await expect
      .poll(() =>
        page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .some((resource) => /\/assets\/hydrate-\w+\.js$/.test(resource.name))
        )
      )
      .toBe(true)
    expect(islandChunks).toEqual([])

    const button = page.getByRole('button', { name: `${en.ui.language}: ENGLISH` })
    await button.hover()
    await expect.poll(() => islandChunks).toEqual(['language-dropdown'])
    await button.click()
    await expect(button).toHaveAttribute('aria-expanded', 'true')
    // Only the island reached for.
    expect(islandChunks).toEqual(['language-dropdown'])
  })

  test.describe('on a phone', () => {
    test.use(phone)

    test('a tap on the menu before it has hydrated opens it once hydrated', async ({ page }) => {
      // Hold the island's chunk until the tap has happened.
      let release = () => {}
      const held = new Promise<void>((resolve) => (release = resolve))
      let requested = false
      await page.route(/\/assets\/navbar-menu-[\w-]+\.js$/, async (route) => {
        requested = true
        await held
        await route.continue()
      })
      await gotoLoaded(page, '/ru/about')
      const toggle = page.getByRole('button', { name: ru.ui.menu, exact: true })
      await toggle.tap()
      // The tap started the menu's hydration: its chunk is asked for, and held.
      await expect.poll(() => requested).toBe(true)
      await expect(toggle).toHaveAttribute('aria-expanded', 'false')
      release()
      await expect(toggle).toHaveAttribute('aria-expanded', 'true')
      await expect(page.locator('#navbar-links')).toBeVisible()
    })
  })
})

test.describe('the carousel chunk', () => {
  test('loads with its stylesheet once the visitor scrolls near the carousel, not before', async ({
    page,
  }) => {
    const requested: string[] = []
    page.on('request', (request) => requested.push(new URL(request.url()).pathname))
    await gotoLoaded(page, '/en')
    await page.waitForLoadState('networkidle')
    expect(requested.filter((file) => /\/carousel-|swiper/i.test(file))).toEqual([])
    await expect(page.locator('.carousel')).not.toHaveClass(/\bswiper-initialized\b/)

    await scrollToCarousel(page)
    expect(requested).toContainEqual(expect.stringMatching(/^\/assets\/carousel-\w+\.js$/))
    expect(requested).toContainEqual(expect.stringMatching(/^\/assets\/carousel-\w+\.css$/))
    await expect(page.locator('head link[rel="stylesheet"][href*="/carousel-"]')).toHaveCount(1)
    await expect(page.locator('.carousel')).toHaveClass(/\bswiper-initialized\b/)
  })

  // One page of each kind without a carousel, the languages taking turns: which chunks a page
  // loads follows from its islands, which are the same in every language.
  for (const path of ['/about', '/en/enterprises', '/ru/contact-us', SAMPLE_PROJECT_KEY]) {
    test(`stays away from ${path}, which has no carousel`, async ({ page }) => {
      const requested: string[] = []
      page.on('request', (request) => requested.push(new URL(request.url()).pathname))
      await gotoLoaded(page, path)
      await page.waitForLoadState('networkidle')
      expect(requested.filter((file) => /\/carousel-|swiper/i.test(file))).toEqual([])
      await expect(page.locator('link[href*="/carousel-"]')).toHaveCount(0)
    })
  }
})
