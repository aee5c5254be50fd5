/**
 * The routes of spec section 2 as a visitor's browser sees them: every page in every language,
 * the error page for an unknown path under a language, and the redirect of an unsupported one.
 */
import { PAGE_KEYS, SAMPLE_PROJECT_KEY } from '../support/page-addresses'
import { expect, gotoAndHydrate, test } from './fixtures'

const LANGUAGES = [
  { prefix: '', lang: 'hy' },
  { prefix: '/en', lang: 'en' },
  { prefix: '/ru', lang: 'ru' },
] as const

const PAGES = [...PAGE_KEYS, SAMPLE_PROJECT_KEY] as const

/** '/en' + '/' is '/en', not '/en/': the site drops trailing slashes. */
function localized(prefix: string, page: string): string {
  return page === '/' ? prefix || '/' : `${prefix}${page}`
}

for (const { prefix, lang } of LANGUAGES) {
  for (const pagePath of PAGES) {
    const path = localized(prefix, pagePath)

    test.describe(`GET ${path}`, () => {
      test(`renders the page in ${lang} with one h1 and the header, nav, main and footer landmarks`, async ({ page }) => {
        const response = await gotoAndHydrate(page, path)

        expect(response.status()).toBe(200)
        expect(new URL(page.url()).pathname).toBe(path)
        await expect(page.locator('html')).toHaveAttribute('lang', lang)
        await expect(page.locator('h1')).toHaveCount(1)
        await expect(page.getByRole('banner').first()).toBeAttached()
        await expect(page.getByRole('navigation').first()).toBeAttached()
        await expect(page.getByRole('main')).toHaveCount(1)
        await expect(page.getByRole('contentinfo').first()).toBeAttached()
      })
    })
  }
}

test.describe('GET /en/nope', () => {
  test('shows the error page with "Page not found" and status 404', async ({ page, pageProblems }) => {
    pageProblems.allow('/en/nope', 404)

    const response = await gotoAndHydrate(page, '/en/nope')

    expect(response.status()).toBe(404)
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await expect(page.getByText('Page not found').first()).toBeVisible()
  })
})

test.describe('GET /fr/about', () => {
  test('ends on / because fr is not a supported language, leaving /fr/about out of the history', async ({
    page,
    baseURL,
  }) => {
    const entriesBefore = await page.evaluate(() => history.length)

    const response = await gotoAndHydrate(page, '/fr/about')

    expect(response.status()).toBe(200)
    expect(page.url()).toBe(new URL('/', baseURL).href)
    await expect(page.locator('html')).toHaveAttribute('lang', 'hy')
    expect(await page.evaluate(() => history.length)).toBe(entriesBefore + 1)
  })
})
