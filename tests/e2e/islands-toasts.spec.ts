/**
 * The toasts (spec sections 2 and 9), raised by the contact form with /api/contact answered by the
 * test: top right, announced, closed by their button, after 5 s, or by a drag over 80 % of their
 * width; paused while hovered, while the window has no focus and while focused with Alt+T, which
 * Escape ends. Texts and names are checked in hy, en and ru.
 *
 * The tests of a toast's time drive the page's clock (Playwright's page.clock): it is held from
 * the moment the message is sent, and the test moves it on, so a toast's 5 s are the page's 5 s
 * however busy the machine is, and no test waits them out.
 */
import { en } from '../../src/shared/i18n/en'
import { hy } from '../../src/shared/i18n/hy'
import { ru } from '../../src/shared/i18n/ru'
import { expect, gotoLoaded, test, type Page } from '../support/e2e/fixtures'

const LANGUAGES = [
  { lng: 'hy', path: '/contact-us', t: hy },
  { lng: 'en', path: '/en/contact-us', t: en },
  { lng: 'ru', path: '/ru/contact-us', t: ru },
] as const
type Dictionary = typeof en

/** A toast's time on screen (client/toasts/toaster.tsx, TOAST_MS). */
const TOAST_MS = 5_000
/** Longer than a toast's 5 s: what a paused toast must outlive. */
const PAST_CLOSING_MS = 6_000
/** Where the page's clock starts; it runs on its own until a test holds it. */
const CLOCK_START = new Date('2026-11-26T09:00:00Z').getTime()

/**
 * Opens the contact page, sends a valid message that /api/contact answers with `status`. With
 * `holdClock`, the page's clock stands still from just before the message is sent: only
 * page.clock.runFor() moves it on.
 */
async function raiseToast(
  page: Page,
  path: string,
  status = 200,
  { holdClock = false } = {}
): Promise<void> {
  if (holdClock) await page.clock.install({ time: CLOCK_START })
  await page.route('**/api/contact', (route) =>
    route.fulfill({ status, json: status === 200 ? { ok: true } : {} })
  )
  await gotoLoaded(page, path)
  // The form, the navbar and the back-to-top button hydrate before the clock stops, whose jump
  // would time their chunks out (client/main.ts): each shows it. The empty form, sent, marks its
  // fields invalid in the page (a send before hydration is held until then, client/triggers.ts);
  // scrolled to the bottom, the navbar turns sticky and the button shows.
  await page.locator('.contact-form__submit').click()
  await expect(page.locator('#contact-name')).toHaveAttribute('aria-invalid', 'true')
  // The form then focuses its first invalid field, which scrolls it into view: a scroll to the
  // bottom before that focus would be undone, leaving the back-to-top button hidden.
  await expect(page.locator('#contact-name')).toBeFocused()
  await page.evaluate(() =>
    window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' })
  )
  await expect(page.locator('.navbar')).toHaveClass(/\bis-sticky\b/)
  await expect(page.locator('.back-to-top')).toBeVisible()
  await page.locator('#contact-name').fill('Anna')
  await page.locator('#contact-email').fill('anna@example.com')
  await page.locator('#contact-comments').fill('A question about the Arabkir Residence.')
  await expect(page.locator('#contact-name')).not.toHaveAttribute('aria-invalid')
  // An hour on: past every timer of the page's load, far from where the page's clock is now.
  if (holdClock) await page.clock.pauseAt(CLOCK_START + 3_600_000)
  await page.locator('.contact-form__submit').click()
}

/** The shown toasts, found as a visitor's screen reader would: list items in the named region. */
function toasts(page: Page, t: Dictionary) {
  return page.getByRole('region', { name: `${t.ui.notifications} (Alt+T)` }).getByRole('listitem')
}

for (const { lng, path, t } of LANGUAGES) {
  test(`in ${lng} announces a failure as an alert, then the success as a status top right, each closed with its close button`, async ({
    page,
    pageProblems,
  }) => {
    pageProblems.allow('/api/contact', 500)
    await raiseToast(page, path, 500)
    const toast = toasts(page, t)

    await expect(toast).toContainText(t.contact.error)
    await expect(page.getByRole('alert').filter({ hasText: t.contact.error })).toHaveCount(1)
    await toast.getByRole('button', { name: t.ui.close }).click()
    await expect(toast).toHaveCount(0)

    // The form keeps what was typed after a failure: sent again, it goes through.
    await page.unroute('**/api/contact')
    await page.route('**/api/contact', (route) =>
      route.fulfill({ status: 200, json: { ok: true } })
    )
    await page.locator('.contact-form__submit').click()

    await expect(toast).toHaveCount(1)
    await expect(toast).toContainText(t.contact.success)
    await expect(page.getByRole('status').filter({ hasText: t.contact.success })).toHaveCount(1)
    // 1rem from the top and right edges, once it has slid in.
    const viewport = page.viewportSize()!
    await expect
      .poll(async () => {
        const box = (await toast.boundingBox())!
        return [Math.round(viewport.width - (box.x + box.width)), Math.round(box.y)]
      })
      .toEqual([16, 16])

    await toast.getByRole('button', { name: t.ui.close }).click()
    await expect(toast).toHaveCount(0)
  })
}

test('closes a toast by itself after 5 s, not before', async ({ page }) => {
  await raiseToast(page, '/en/contact-us', 200, { holdClock: true })
  const toast = toasts(page, en)
  await expect(toast).toHaveCount(1)

  await page.clock.runFor(TOAST_MS - 100)
  await expect(toast).toHaveCount(1)
  await page.clock.runFor(200)
  await expect(toast).toHaveCount(0)
})

test('pauses while the toast is hovered', async ({ page }) => {
  await raiseToast(page, '/en/contact-us', 200, { holdClock: true })
  const toast = toasts(page, en)
  await toast.hover()

  await page.clock.runFor(PAST_CLOSING_MS)
  await expect(toast).toHaveCount(1)
  await page.mouse.move(0, 400)
  await page.clock.runFor(TOAST_MS + 100)
  await expect(toast).toHaveCount(0)
})

test('pauses while the window has no focus', async ({ page }) => {
  await raiseToast(page, '/ru/contact-us', 200, { holdClock: true })
  const toast = toasts(page, ru)
  await expect(toast).toHaveCount(1)
  await page.evaluate(() => window.dispatchEvent(new FocusEvent('blur')))

  await page.clock.runFor(PAST_CLOSING_MS)
  await expect(toast).toHaveCount(1)
  await page.evaluate(() => window.dispatchEvent(new FocusEvent('focus')))
  await page.clock.runFor(TOAST_MS + 100)
  await expect(toast).toHaveCount(0)
})

test('focuses the newest toast on Alt+T, pausing it, and Escape gives focus back and resumes it', async ({
  page,
}) => {
  await raiseToast(page, '/contact-us', 200, { holdClock: true })
  const toast = toasts(page, hy)
  const name = page.locator('#contact-name')
  await expect(toast).toHaveCount(1)
  await name.focus()

  await page.keyboard.press('Alt+t')
  await expect(toast).toBeFocused()
  await page.clock.runFor(PAST_CLOSING_MS)
  await expect(toast).toHaveCount(1)

  await page.keyboard.press('Escape')
  await expect(name).toBeFocused()
  await page.clock.runFor(TOAST_MS + 100)
  await expect(toast).toHaveCount(0)
})

test('dismisses a toast dragged over 80 % of its width, and lets one dragged less spring back', async ({
  page,
}) => {
  await raiseToast(page, '/en/contact-us')
  const toast = toasts(page, en)
  await expect(toast).toHaveCount(1)
  const box = (await toast.boundingBox())!
  const y = box.y + box.height / 2

  /** Drags the toast by its icon, leftwards (it sits at the right edge), by `share` of its width. */
  async function drag(share: number) {
    const x = box.x + 30
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x - share * box.width, y, { steps: 8 })
    await page.mouse.up()
  }

  await drag(0.5)
  await expect(toast).toHaveCount(1)
  await expect(toast).toHaveCSS('transform', 'none')

  await drag(0.85)
  await expect(toast).toHaveCount(0)
})
