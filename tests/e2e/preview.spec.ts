/**
 * An editor's preview without JavaScript, and with the keyboard only (Chromium): the signed link
 * opens the marked page, the preview bar switches language, the report lists the gaps, exit ends
 * it, all as plain links; every mark is reached with Tab, in the page's order, and leads to its
 * line in the report. On a site of its own (tests/support/e2e/preview-site.ts).
 */
import { desktop, expect, test } from '../support/e2e/fixtures'
import {
  ABOUT_MARKS,
  SHARED_MARK,
  startPreviewSite,
  type PreviewSite,
} from '../support/e2e/preview-site'

test.describe('a preview', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 })
  test.use(desktop)
  let site: PreviewSite | undefined

  test.beforeAll(async () => {
    test.setTimeout(240_000)
    site = await startPreviewSite('chromium')
  })

  test.afterAll(async () => {
    await site?.stop()
  })

  test('works without JavaScript: link, marked page, language switch, report, exit', async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL: site!.origin })
    const page = await context.newPage()
    try {
      await page.goto(await site!.link('/ru/about'))
      await expect(page).toHaveURL(/\/_preview\/ru\/about$/)
      const marks = page.locator('a.gap-mark')
      await expect(marks.filter({ hasText: ABOUT_MARKS.ru })).toBeVisible()
      await expect(marks.filter({ hasText: SHARED_MARK })).toBeVisible()

      await page.locator('.preview-bar a[hreflang="hy"]').click()
      await expect(page).toHaveURL(/\/_preview\/about$/)
      await expect(marks.filter({ hasText: ABOUT_MARKS.hy })).toBeVisible()
      await expect(marks.filter({ hasText: ABOUT_MARKS.ru })).toHaveCount(0)

      await marks.filter({ hasText: ABOUT_MARKS.hy }).click()
      await expect(page).toHaveURL(/\/_preview\/report#gap-[0-9a-z]+$/)
      const target = new URL(page.url()).hash
      await expect(page.locator(`li.gap${target}`)).toContainText('arm_subTitleMission')
      await expect(page.locator(`li.gap${target}`)).toContainText('Fix: fill arm_subTitleMission')

      await page.getByRole('link', { name: 'Exit preview' }).click()
      await expect(page).not.toHaveURL(/\/_preview\//)
      const refused = await page.goto('/_preview/ru/about')
      expect([401, 403]).toContain(refused!.status())
    } finally {
      await context.close()
    }
  })

  test('reaches every mark with the keyboard, in the order of the page', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: site!.origin })
    const page = await context.newPage()
    try {
      await page.goto(await site!.link('/ru/about'))
      await expect(page).toHaveURL(/\/_preview\/ru\/about$/)
      const expected = await page.locator('a.gap-mark').allTextContents()
      expect(expected).toEqual(expect.arrayContaining([ABOUT_MARKS.ru, SHARED_MARK]))
      const reached: string[] = []
      // Tab through the page until focus leaves it or comes round again; a deadline of presses.
      for (let press = 0; press < 200 && reached.length < expected.length; press++) {
        await page.keyboard.press('Tab')
        const focused = await page.evaluate(() => {
          const element = document.activeElement
          return element?.classList.contains('gap-mark') ? element.textContent : null
        })
        if (focused && !reached.includes(focused)) reached.push(focused)
      }
      expect(reached).toEqual(expected)
      await page.keyboard.press('Enter')
      await expect(page).toHaveURL(/\/_preview\/report#gap-/)
    } finally {
      await context.close()
    }
  })
})
