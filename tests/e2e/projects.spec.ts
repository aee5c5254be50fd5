/**
 * Project pages as a visitor meets them: a card on the enterprises page, in each
 * language, and on the home page's carousel leads to the project's own page, whose head is the
 * project's.
 */
import seed from '../../content-service/seed/enterprises.json' with { type: 'json' }
import { dictionaries } from '../../src/shared/i18n'
import { expect, gotoLoaded, test } from '../support/e2e/fixtures'

const arabkir = seed.enterprises[0]!
const LANGUAGES = [
  { prefix: '', lang: 'hy', title: arabkir.arm_title, siteName: dictionaries.hy.meta.siteName },
  { prefix: '/en', lang: 'en', title: arabkir.title, siteName: dictionaries.en.meta.siteName },
  { prefix: '/ru', lang: 'ru', title: arabkir.ru_title, siteName: dictionaries.ru.meta.siteName },
] as const

for (const { prefix, lang, title, siteName } of LANGUAGES) {
  test(`in ${lang}, clicking a card's title on the enterprises page opens the project's page`, async ({
    page,
  }) => {
    await gotoLoaded(page, `${prefix}/enterprises`)
    await page.locator('.feature-row__title').getByRole('link', { name: title }).click()
    await expect(page).toHaveURL(`${prefix}/enterprises/1-arabkir-residence`)
    await expect(page.locator('h1')).toHaveText(title)
    await expect(page).toHaveTitle(`${title} · ${siteName}`)
    await expect(page.locator('html')).toHaveAttribute('lang', lang)
    // The way back: breadcrumbs to the list, and the other projects to go on to.
    await expect(page.locator('.breadcrumbs a')).toHaveCount(2)
    await expect(page.locator('.project-card')).toHaveCount(seed.enterprises.length - 1)
  })
}

test("clicking a carousel card's photo on the home page opens the project's page", async ({
  page,
}) => {
  await gotoLoaded(page, '/en')
  const card = page
    .locator('.enterprise-card', { has: page.getByRole('link', { name: arabkir.title }) })
    .first()
  await card.scrollIntoViewIfNeeded()
  await card.locator('.enterprise-card__photo-link').click()
  await expect(page).toHaveURL('/en/enterprises/1-arabkir-residence')
  await expect(page.locator('h1')).toHaveText(arabkir.title)
})
