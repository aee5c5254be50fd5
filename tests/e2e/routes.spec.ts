/**
 * The routes of spec section 2 as a visitor's browser sees them: the error page for an unknown
 * path under a language, and the redirect of an unsupported one. Every page in every language
 * (200 at its own address, its language, one h1, the header, nav, main and footer landmarks) is
 * checked on a phone and a desktop, in every engine, by visitor-pages.spec.ts.
 */
import { expect, gotoLoaded, test } from '../support/e2e/fixtures'

test.describe('GET /en/nope', () => {
  test('shows the error page with "Page not found" and status 404', async ({
    page,
    pageProblems,
  }) => {
    pageProblems.allow('/en/nope', 404)

    const response = await gotoLoaded(page, '/en/nope')

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

    const response = await gotoLoaded(page, '/fr/about')

    expect(response.status()).toBe(200)
    expect(page.url()).toBe(new URL('/', baseURL).href)
    await expect(page.locator('html')).toHaveAttribute('lang', 'hy')
    expect(await page.evaluate(() => history.length)).toBe(entriesBefore + 1)
  })
})
