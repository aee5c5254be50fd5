/**
 * The language offer (client/language-offer.ts, src/views/layout/language-offer.tsx) in Chromium:
 * a visitor whose browser prefers another language than the page's, or who chose one earlier, is
 * offered the same page in it; never redirected. Browser languages come from Playwright's `locale`
 * (navigator.languages and Accept-Language alike). The offer in Firefox and WebKit:
 * visitor-language-offer.spec.ts. A prerendered page: prerender.spec.ts's way (puppeteer-core,
 * which Playwright's connection would block), here for the offer.
 */
import puppeteer, {
  type Browser as PuppeteerBrowser,
  type Page as PuppeteerPage,
} from 'puppeteer-core'
import { CHROMIUM_ARGS } from '../../scripts/lib/chromium-path.mjs'
import { en } from '../../src/shared/i18n/en'
import { hy } from '../../src/shared/i18n/hy'
import { ru } from '../../src/shared/i18n/ru'
import { PAGE_ADDRESSES } from '../support/page-addresses'
import { screenshotFile } from '../support/e2e/engines/screenshots'
import { expect, gotoLoaded, test, type Page } from '../support/e2e/fixtures'

const TEXTS = { hy, en, ru } as const
type Lng = keyof typeof TEXTS

/** The offer in `lng`, found as a screen reader finds it: a region named in that language. */
function offer(page: Page, lng: Lng) {
  return page.getByRole('complementary', { name: TEXTS[lng].ui.languageOfferLabel })
}

/** Every offer the page has, shown or not. */
const ANY_OFFER = '.language-offer'

async function expectNoOfferShown(page: Page): Promise<void> {
  // The entry, a module script, decides as it runs, before DOMContentLoaded: by the load event the
  // decision is made.
  await page.waitForLoadState('load')
  await expect(page.locator(ANY_OFFER).filter({ visible: true })).toHaveCount(0)
  await expect(page.locator('html')).not.toHaveAttribute('data-language-offered')
}

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
const DESKTOP = { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false }

test.describe('a browser that prefers Russian (ru-RU)', () => {
  test.use({ locale: 'ru-RU' })

  test('is offered an Armenian page in Russian, the link keeping query and hash, and nothing on a Russian page', async ({
    page,
  }) => {
    await gotoLoaded(page, '/contact-us?project=1#contact-form')
    const russian = offer(page, 'ru')
    await expect(russian).toBeVisible()
    await expect(russian).toHaveAttribute('lang', 'ru')
    await expect(russian.getByRole('link', { name: ru.ui.languageOffer })).toHaveAttribute(
      'href',
      '/ru/contact-us?project=1#contact-form'
    )
    await expect(russian.getByRole('button', { name: ru.ui.close })).toBeVisible()
    // Never a redirect: the address opened is the page shown.
    expect(new URL(page.url()).pathname).toBe('/contact-us')
    await expect(page.locator(ANY_OFFER).filter({ visible: true })).toHaveCount(1)

    await gotoLoaded(page, '/ru/about')
    await expectNoOfferShown(page)
  })

  test('follows the offer to the same page in Russian, and that counts as a choice', async ({
    page,
  }) => {
    await gotoLoaded(page, '/en/about')
    await offer(page, 'ru').getByRole('link', { name: ru.ui.languageOffer }).click()
    await expect.poll(() => new URL(page.url()).pathname).toBe('/ru/about')
    expect(await page.evaluate(() => localStorage.getItem('selectedLanguage'))).toBe('ru')
    await expectNoOfferShown(page)
  })

  test('a language picked in the dropdown outranks the browser: English is offered from then on', async ({
    page,
  }) => {
    await gotoLoaded(page, '/')
    await expect(offer(page, 'ru')).toBeVisible()
    await page.getByRole('button', { name: `${hy.ui.language}: ՀԱՅԵՐԵՆ` }).click()
    await page.getByRole('link', { name: 'ENGLISH' }).click()
    await expect.poll(() => new URL(page.url()).pathname).toBe('/en')
    await expectNoOfferShown(page)
    await gotoLoaded(page, '/ru/enterprises')
    await expect(offer(page, 'en')).toBeVisible()
    await expect(offer(page, 'ru')).toHaveCount(0)
  })

  test('closed from the keyboard, the offer stays closed after a reload and on other pages', async ({
    page,
  }) => {
    await gotoLoaded(page, '/')
    const russian = offer(page, 'ru')
    await expect(russian).toBeVisible()
    // Shown without taking the focus: the visitor reaches it with Tab, right after the skip link.
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true)
    await page.keyboard.press('Tab')
    await expect(page.getByRole('link', { name: hy.ui.skipToContent })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(russian.getByRole('link', { name: ru.ui.languageOffer })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(russian.getByRole('button', { name: ru.ui.close })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(russian).toBeHidden()
    await expect(page.locator('html')).not.toHaveAttribute('data-language-offered')

    await page.reload({ waitUntil: 'load' })
    await expectNoOfferShown(page)
    await gotoLoaded(page, '/en/contact-us')
    await expectNoOfferShown(page)
  })
})

test.describe('a browser that prefers English (en-US)', () => {
  test.use({ locale: 'en-US' })

  test('is offered a Russian page in English, and nothing on an English page', async ({ page }) => {
    await gotoLoaded(page, '/ru/enterprises')
    const english = offer(page, 'en')
    await expect(english).toBeVisible()
    await expect(english.getByRole('link', { name: en.ui.languageOffer })).toHaveAttribute(
      'href',
      '/en/enterprises'
    )
    await gotoLoaded(page, '/en')
    await expectNoOfferShown(page)
  })
})

test.describe('a browser that prefers Armenian (hy-AM)', () => {
  test.use({ locale: 'hy-AM' })

  test('is offered an English page in Armenian, and nothing on an Armenian page', async ({
    page,
  }) => {
    await gotoLoaded(page, '/en/about')
    const armenian = offer(page, 'hy')
    await expect(armenian).toBeVisible()
    await expect(armenian.getByRole('link', { name: hy.ui.languageOffer })).toHaveAttribute(
      'href',
      '/about'
    )
    await gotoLoaded(page, '/about')
    await expectNoOfferShown(page)
  })
})

test.describe('a browser that prefers none of the site’s languages (de-DE)', () => {
  test.use({ locale: 'de-DE' })

  test('is offered nothing', async ({ page }) => {
    await gotoLoaded(page, '/en')
    await expectNoOfferShown(page)
  })
})

test.describe('without JavaScript', () => {
  test.use({ locale: 'ru-RU' })

  test('nothing is offered and the page works as it does for everyone', async ({
    noJsPage,
    pageProblems,
  }) => {
    // With JavaScript off, Chromium refuses the entry's module preload ('csp'): expected here.
    pageProblems.allow(/\/assets\/.+\.js$/)
    const response = await noJsPage.goto('/', { waitUntil: 'load' })
    expect(response?.status()).toBe(200)
    await expect(noJsPage.locator(ANY_OFFER)).toHaveCount(2)
    await expect(noJsPage.locator(ANY_OFFER).filter({ visible: true })).toHaveCount(0)
    await expect(noJsPage.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(noJsPage.locator('nav a[href="/about"]')).toBeVisible()
  })
})

/**
 * Where every element of the page is laid out, once its fonts are in and the frames after are
 * drawn: each element's offset box (its layout, transforms aside: a card a hover lifts has not
 * moved) in document order, two parts aside that move on their own clock: the carousel's slides
 * (Swiper moves and copies them) and the contact form's toaster (empty and zero-high, it takes its
 * fixed place when its island's stylesheet arrives, which a busy machine may deliver between the
 * two readings). Two readings of one page are compared element by element.
 */
async function layout(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    await document.fonts.ready
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    return [...document.body.querySelectorAll<HTMLElement>('*')]
      .filter((element) => !element.closest('.carousel, .language-offer, .toaster'))
      .map(
        (element) =>
          `${element.localName}.${element.className}: ${element.offsetLeft},${element.offsetTop} ${element.offsetWidth}x${element.offsetHeight}`
      )
  })
}

/** The language a page is not in that its visitor is offered here: the next in hy, en, ru. */
function otherLanguage(address: string): Lng {
  if (address.startsWith('/en')) return 'ru'
  if (address.startsWith('/ru')) return 'hy'
  return 'en'
}

/** Whether two boxes overlap, in viewport coordinates. */
type Box = { top: number; bottom: number; left: number; right: number }
const overlap = (a: Box, b: Box) =>
  a.top < b.bottom && b.top < a.bottom && a.left < b.right && b.left < a.right

for (const [screen, device] of [
  ['390 px', PHONE],
  ['1280 px', DESKTOP],
] as const) {
  test.describe(`at ${screen}, with the offer shown`, () => {
    test.use(device)
    // One page load per address, on a busy machine.
    test.describe.configure({ timeout: 180_000 })

    test('the offer moves nothing on the page, and covers neither its heading nor the contact form', async ({
      page,
    }) => {
      for (const address of PAGE_ADDRESSES) {
        const offered = otherLanguage(address)
        // The visitor chose that language earlier: stored before the page's own scripts run.
        await page.addInitScript((lng) => localStorage.setItem('selectedLanguage', lng), offered)
        await gotoLoaded(page, address)
        await expect(offer(page, offered), address).toBeVisible()
        const boxes = await page.evaluate(() => {
          const box = (selector: string) => {
            const element = document.querySelector(selector)
            return element ? element.getBoundingClientRect().toJSON() : null
          }
          return {
            offer: box('.language-offer:not([hidden])'),
            heading: box('h1'),
            form: box('form'),
          }
        })
        expect(boxes.offer, address).not.toBeNull()
        expect(overlap(boxes.offer!, boxes.heading!), `${address}: the heading`).toBe(false)
        if (boxes.form)
          expect(overlap(boxes.offer!, boxes.form), `${address}: the form`).toBe(false)
        const file = /^\/((en|ru)(\/contact-us)?|contact-us)?$/.test(address)
          ? screenshotFile(`language-offer-${screen}-${address}`)
          : null
        if (file) await page.screenshot({ path: file })
        // Shown, then closed: every element of the page where it was. Showing and hiding toggle
        // the same rules (src/styles/layout/language-offer.css), so neither moves anything, when
        // the offer shows as the page loads or later. A layout shift score of the whole load
        // would count the streamed HTML's and the fonts' shifts too, which follow the machine's
        // load, not the offer (docs/decisions/0031-tests-check-causes-the-bench-measures-amounts.md).
        const shown = await layout(page)
        await offer(page, offered).getByRole('button', { name: TEXTS[offered].ui.close }).click()
        await expect(offer(page, offered), address).toBeHidden()
        const closed = await layout(page)
        expect(
          shown.flatMap((element, index) =>
            element === closed[index] ? [] : [`${element} -> ${closed[index]}`]
          ),
          `${address}: what moved as the offer closed`
        ).toEqual([])
        await page.evaluate(() => localStorage.clear())
      }
    })
  })
}

test.describe('a page restored from the back/forward cache', () => {
  test('shows the offer closed when it was closed on a later page', async ({
    playwright,
    baseURL,
  }) => {
    // Playwright launches Chromium without the back/forward cache (back-forward-cache.spec.ts).
    const browser = await playwright.chromium.launch({
      executablePath: process.env.E2E_CHROMIUM,
      args: CHROMIUM_ARGS,
      ignoreDefaultArgs: ['--disable-back-forward-cache'],
    })
    try {
      const context = await browser.newContext({ baseURL, locale: 'ru-RU' })
      const page = await context.newPage()
      await page.addInitScript(() =>
        addEventListener('pageshow', (event) =>
          Object.assign(window, { restored: event.persisted })
        )
      )
      await gotoLoaded(page, '/')
      await expect(offer(page, 'ru')).toBeVisible()
      await gotoLoaded(page, '/en/about')
      await offer(page, 'ru').getByRole('button', { name: ru.ui.close }).click()
      await expect(offer(page, 'ru')).toBeHidden()
      await page.goBack({ waitUntil: 'commit' })
      await expect.poll(() => new URL(page.url()).pathname).toBe('/')
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { restored?: boolean }).restored), {
          message: 'the page came from the back/forward cache',
        })
        .toBe(true)
      await expect(offer(page, 'ru')).toBeHidden()
      await expect(page.locator('html')).not.toHaveAttribute('data-language-offered')
    } finally {
      await browser.close()
    }
  })
})

test.describe('a prerendered page', () => {
  test.describe.configure({ timeout: 90_000 })
  let browser: PuppeteerBrowser

  test.beforeEach(async () => {
    browser = await puppeteer.launch({
      executablePath: process.env.E2E_CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    })
  })
  test.afterEach(async () => {
    await browser?.close()
  })

  /** Opens `path` and waits until its speculation rules are in place (prerender.spec.ts says why). */
  async function open(path: string, baseURL: string): Promise<PuppeteerPage> {
    const [page] = await browser.pages()
    await page!.setViewport({ width: 1280, height: 800 })
    const session = await page!.createCDPSession()
    let rulesInPlace = false
    session.on('Preload.ruleSetUpdated', ({ ruleSet }) => {
      if (ruleSet.url?.endsWith('/speculation-rules.json') && !ruleSet.errorType)
        rulesInPlace = true
    })
    await session.send('Preload.enable')
    await page!.goto(`${baseURL}${path}`, { waitUntil: 'load' })
    await expect
      .poll(() => rulesInPlace, { message: 'the speculation rules are in place' })
      .toBe(true)
    await session.detach()
    return page!
  }

  test('shows the offer closed when the visitor closed it after the page was prerendered', async ({
    baseURL,
  }) => {
    const page = await open('/en', baseURL!)
    // A visitor who chose Russian earlier.
    await page.evaluate(() => localStorage.setItem('selectedLanguage', 'ru'))
    await page.reload({ waitUntil: 'load' })
    await page.waitForSelector('.language-offer[lang="ru"]:not([hidden])')

    const contactLink = 'nav a[href="/en/contact-us"]'
    // The prerendered page, seen from its own target (found through target discovery, which
    // leaves prerendering on, where a page's Preload domain would turn it off).
    const discovery = await browser.target().createCDPSession()
    let prerenderTarget: string | undefined
    discovery.on('Target.targetInfoChanged', ({ targetInfo }) => {
      if (targetInfo.subtype === 'prerender' && targetInfo.url === `${baseURL}/en/contact-us`)
        prerenderTarget = targetInfo.targetId
    })
    await discovery.send('Target.setDiscoverTargets', { discover: true })
    await page.hover(contactLink)
    await expect
      .poll(() => prerenderTarget, { message: 'the contact page is prerendered', timeout: 30_000 })
      .toBeDefined()
    const { sessionId } = await discovery.send('Target.attachToTarget', {
      targetId: prerenderTarget!,
      flatten: true,
    })
    const prerendered = discovery.connection()!.session(sessionId)!
    // While it waits to be shown, it offers Russian: the entry decided as the page was prerendered.
    await expect
      .poll(
        async () =>
          (
            await prerendered.send('Runtime.evaluate', {
              expression:
                "document.prerendering && document.documentElement.hasAttribute('data-language-offered')",
              returnByValue: true,
            })
          ).result.value as boolean,
        { message: 'the prerendered page offers Russian', timeout: 30_000 }
      )
      .toBe(true)
    await discovery.send('Target.detachFromTarget', { sessionId })
    await discovery.detach()

    await page.mouse.move(0, 700)
    await page.click('.language-offer[lang="ru"] button')
    await page.waitForSelector('.language-offer[lang="ru"][hidden]')
    await page.click(contactLink)
    await expect
      .poll(() => page.evaluate(() => location.pathname).catch(() => ''), { timeout: 15_000 })
      .toBe('/en/contact-us')
    // Shown: the entry decides again as the page is activated, in the same task.
    await page.waitForFunction(
      () => !(document as Document & { prerendering?: boolean }).prerendering
    )
    const shown = await page.evaluate(() => ({
      activationStart: (
        performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming & {
          activationStart: number
        }
      ).activationStart,
      offered: document.documentElement.hasAttribute('data-language-offered'),
      visible: [...document.querySelectorAll<HTMLElement>('.language-offer')].filter(
        (offer) => !offer.hidden
      ).length,
    }))
    // Prerendered, then shown by the click, and closed as the visitor left it.
    expect(shown.activationStart).toBeGreaterThan(0)
    expect(shown).toMatchObject({ offered: false, visible: 0 })
  })
})
