/**
 * An editor's preview, in every engine: a signed link opens a page whose gaps are marked in place
 * (src/views/components/gap-marks.tsx), the preview bar switches language inside preview, the
 * report lists each marked gap, and exit ends the preview. In Chromium also without JavaScript and
 * with the keyboard only: all of it as plain links, and every mark reached with Tab, in the page's
 * order, leading to its line in the report. On one site of their own
 * (tests/support/e2e/preview-site.ts). A run that asks (E2E_SCREENSHOTS=1) leaves screenshots in
 * tests/e2e/screenshots/<engine>-preview-<language>-<phone|desktop>.png to look at.
 */
import { expect, test } from '../support/e2e/engines/engine-fixtures'
import { desktop } from '../support/e2e/fixtures'
import { horizontalOverflow } from '../support/e2e/engines/in-page'
import { DESKTOP, until, type Screen } from '../support/e2e/engines/visitor'
import {
  ABOUT_MARKS,
  SHARED_MARK,
  startPreviewSite,
  type PreviewSite,
} from '../support/e2e/preview-site'

const PHONE_390: Screen = { width: 390, height: 844, phone: true }
/**
 * A preview page reads every payload from the CMS and opens its images as it renders: a deadline
 * for a busy two-core machine, not a speed.
 */
const PAGE_WAIT = { timeoutMs: 60_000 }

/** The marks on the page, as their visible text. */
function marks(): string[] {
  return [...document.querySelectorAll('a.gap-mark')].map((mark) => mark.textContent!.trim())
}

/** Whether the page at `path` has loaded. */
function loadedAt(path: string): boolean {
  return location.pathname === path && document.readyState === 'complete'
}

/** The preview bar's gap counts, the page's language first. */
function barCounts(): number[] {
  return [...document.querySelectorAll('.preview-bar__gaps')].map((count) =>
    Number(count.textContent)
  )
}

/** Whether each mark takes the keyboard's focus, as a link does. */
function marksTakeFocus(): boolean[] {
  return [...document.querySelectorAll<HTMLAnchorElement>('a.gap-mark')].map((mark) => {
    mark.focus()
    return document.activeElement === mark && mark.tabIndex >= 0
  })
}

/** The ids the report's gap lines have. */
function reportLines(): string[] {
  return [...document.querySelectorAll('li.gap[id]')].map((line) => line.id)
}

/** Where each mark leads: its gap's line on the report. */
function markTargets(): string[] {
  return [...document.querySelectorAll<HTMLAnchorElement>('a.gap-mark')].map((mark) =>
    new URL(mark.href).hash.slice(1)
  )
}

test.describe('an editor previewing a change', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 })
  let site: PreviewSite | undefined

  test.beforeAll(async () => {
    test.setTimeout(240_000)
    site = await startPreviewSite('visitor')
  })

  test.afterAll(async () => {
    await site?.stop()
  })

  test('link, marked page, language switch, report, exit: in three languages', async ({
    visitors,
  }) => {
    const visitor = await visitors(site!.origin)
    try {
      expect(await visitor.open(await site!.link('/about'))).toBe(200)
      await until(visitor, loadedAt, '/_preview/about', {
        ...PAGE_WAIT,
        what: 'the Armenian preview',
      })
      const expected = ABOUT_MARKS
      const seen: Record<string, string[]> = {}
      for (const [lng, address] of [
        ['hy', '/_preview/about'],
        ['en', '/_preview/en/about'],
        ['ru', '/_preview/ru/about'],
      ] as const) {
        if (lng !== 'hy') {
          // The bar's link to the language, which keeps the editor in preview.
          await visitor.click(`.preview-bar a[hreflang="${lng}"]`)
          await until(visitor, loadedAt, address, { ...PAGE_WAIT, what: `the ${lng} preview` })
        }
        seen[lng] = await until(visitor, marks, null, { what: `${lng} marks` })
        expect(seen[lng], `${visitor.name} ${lng}`).toContain(expected[lng])
        expect(seen[lng]).toContain(SHARED_MARK)
        expect((await visitor.run(barCounts, null))[0]).toBe(seen[lng]!.length)
        expect((await visitor.run(marksTakeFocus, null)).every(Boolean)).toBe(true)
        // Focusing the marks scrolled the page down, where the sticky navbar can cover the bar's
        // links as a click scrolls back to them: the editor's next click starts from the top.
        await visitor.run(() => window.scrollTo({ top: 0, behavior: 'instant' }), null)
        for (const [device, screen] of [
          ['desktop', DESKTOP],
          ['phone', PHONE_390],
        ] as const) {
          if (visitor.narrowest > screen.width) continue
          await visitor.resize(screen)
          expect(await visitor.run(horizontalOverflow, null), `${lng} ${device}`).toBe(0)
          await visitor.screenshot(`${visitor.engine}-preview-${lng}-${device}`)
        }
        await visitor.resize(DESKTOP)
      }
      expect(seen.en).not.toContain(expected.ru)

      // The bar's report link: every mark of the Russian page has its line there.
      const targets = await visitor.run(markTargets, null)
      await visitor.click('.preview-bar a[href="/_preview/report"]')
      await until(visitor, loadedAt, '/_preview/report', { ...PAGE_WAIT, what: 'the report' })
      const lines = await until(visitor, reportLines, null, { what: 'the report lines' })
      for (const target of targets) expect(lines).toContain(target)
      await visitor.screenshot(`${visitor.engine}-preview-report-desktop`)

      // Exit, from the Russian page's bar: back on the public page, and preview is closed.
      expect(await visitor.open('/_preview/ru/about')).toBe(200)
      await visitor.click('.preview-bar a[href^="/_preview/exit"]')
      await until(visitor, loadedAt, '/ru/about', {
        ...PAGE_WAIT,
        what: 'the public page after exit',
      })
      expect(await visitor.run(marks, null)).toEqual([])
      expect([401, 403]).toContain(await visitor.open('/_preview/ru/about'))
      visitor.problems.take()
    } finally {
      await visitor.close()
    }
  })

  test.describe('in Chromium, as plain links and from the keyboard', () => {
    test.use(desktop)
    // Playwright's Chromium only: what the engines share is the test above.
    test.skip(
      ({ driver, browserName }) => driver !== 'playwright' || browserName !== 'chromium',
      'Chromium only'
    )

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
})
