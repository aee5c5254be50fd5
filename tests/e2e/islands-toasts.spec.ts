/**
 * The toasts (spec sections 2 and 9), raised by the contact form with /api/contact answered by the
 * test: top right, announced, closed by their button, after 5 s, or by a drag over 80 % of their
 * width; paused while hovered, while the window has no focus and while focused with Alt+T, which
 * Escape ends. Texts and names are checked in hy, en and ru.
 */
import { en } from '../../src/shared/i18n/en'
import { hy } from '../../src/shared/i18n/hy'
import { ru } from '../../src/shared/i18n/ru'
import { expect, gotoAndHydrate, test, type Page } from './fixtures'

const LANGUAGES = [
  { lng: 'hy', path: '/contact-us', t: hy },
  { lng: 'en', path: '/en/contact-us', t: en },
  { lng: 'ru', path: '/ru/contact-us', t: ru },
] as const
type Dictionary = typeof en

/** Longer than a toast's 5 s: what a paused toast must outlive. */
const PAST_CLOSING_MS = 6_000

/** Opens the contact page, sends a valid message that /api/contact answers with `status`. */
async function raiseToast(page: Page, path: string, status = 200): Promise<void> {
  await page.route('**/api/contact', (route) => route.fulfill({ status, json: status === 200 ? { ok: true } : {} }))
  await gotoAndHydrate(page, path)
  await page.locator('#contact-name').fill('Anna')
  await page.locator('#contact-email').fill('anna@example.com')
  await page.locator('#contact-comments').fill('A question about the Arabkir Residence.')
  await page.locator('.contact-form__submit').click()
}

/** The shown toasts, found as a visitor's screen reader would: list items in the named region. */
function toasts(page: Page, t: Dictionary) {
  return page.getByRole('region', { name: `${t.ui.notifications} (Alt+T)` }).getByRole('listitem')
}

for (const { lng, path, t } of LANGUAGES) {
  test.describe(`in ${lng}`, () => {
    test('shows the success toast top right, announces it, and closes it with its close button', async ({ page }) => {
      await raiseToast(page, path)
      const toast = toasts(page, t)

      await expect(toast).toHaveCount(1)
      await expect(toast).toContainText(t.contact.success)
      await expect(page.getByRole('status').filter({ hasText: t.contact.success })).toHaveCount(1)
      // 1rem from the top and right edges, once it has slid in.
      const viewport = page.viewportSize()!
      await expect.poll(async () => {
        const box = (await toast.boundingBox())!
        return [Math.round(viewport.width - (box.x + box.width)), Math.round(box.y)]
      }).toEqual([16, 16])

      await toast.getByRole('button', { name: t.ui.close }).click()
      await expect(toast).toHaveCount(0)
    })

    test('announces a failure as an alert', async ({ page, pageProblems }) => {
      pageProblems.allow('/api/contact', 500)
      await raiseToast(page, path, 500)

      await expect(toasts(page, t)).toContainText(t.contact.error)
      await expect(page.getByRole('alert').filter({ hasText: t.contact.error })).toHaveCount(1)
    })
  })
}

test('closes a toast by itself after 5 s', async ({ page }) => {
  await raiseToast(page, '/en/contact-us')
  const toast = toasts(page, en)
  await expect(toast).toHaveCount(1)

  await page.waitForTimeout(4_000)
  await expect(toast).toHaveCount(1)
  await expect(toast).toHaveCount(0, { timeout: 3_000 })
})

test('pauses while the toast is hovered', async ({ page }) => {
  await raiseToast(page, '/en/contact-us')
  const toast = toasts(page, en)
  await toast.hover()

  await page.waitForTimeout(PAST_CLOSING_MS)
  await expect(toast).toHaveCount(1)
  await page.mouse.move(0, 400)
  await expect(toast).toHaveCount(0, { timeout: PAST_CLOSING_MS })
})

test('pauses while the window has no focus', async ({ page }) => {
  await raiseToast(page, '/ru/contact-us')
  const toast = toasts(page, ru)
  await expect(toast).toHaveCount(1)
  await page.evaluate(() => window.dispatchEvent(new FocusEvent('blur')))

  await page.waitForTimeout(PAST_CLOSING_MS)
  await expect(toast).toHaveCount(1)
  await page.evaluate(() => window.dispatchEvent(new FocusEvent('focus')))
  await expect(toast).toHaveCount(0, { timeout: PAST_CLOSING_MS })
})

test('focuses the newest toast on Alt+T, pausing it, and Escape gives focus back and resumes it', async ({ page }) => {
  await raiseToast(page, '/contact-us')
  const toast = toasts(page, hy)
  const name = page.locator('#contact-name')
  await expect(toast).toHaveCount(1)
  await name.focus()

  await page.keyboard.press('Alt+t')
  await expect(toast).toBeFocused()
  await page.waitForTimeout(PAST_CLOSING_MS)
  await expect(toast).toHaveCount(1)

  await page.keyboard.press('Escape')
  await expect(name).toBeFocused()
  await expect(toast).toHaveCount(0, { timeout: PAST_CLOSING_MS })
})

test('dismisses a toast dragged over 80 % of its width, and lets one dragged less spring back', async ({ page }) => {
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
