/**
 * The language offer in every engine (tests/support/e2e/engines): a language chosen earlier is
 * offered on a page in another language, its link keeping the page, query and fragment, and once
 * closed it stays closed on the next page. language-offer.spec.ts goes further in Chromium (the
 * browser's own languages, keyboard, layout shift, no JavaScript, the back/forward cache, prerender).
 */
import { expect, test } from '../support/e2e/engines/engine-fixtures'
import { isShown } from '../support/e2e/engines/in-page'
import { until } from '../support/e2e/engines/visitor'

test('a language chosen earlier is offered on a page in another language, and a closed offer stays closed', async ({
  visitor,
}) => {
  await visitor.open('/en')
  await visitor.run(() => {
    localStorage.clear()
    localStorage.setItem('selectedLanguage', 'ru')
  }, null)
  await visitor.open('/en/about?ref=e2e#mission')
  await until(visitor, isShown, '[data-language-offer="ru"]', { what: 'the offer in Russian' })
  expect(
    await visitor.run(
      () => ({
        href: document.querySelector('[data-language-offer="ru"] a')?.getAttribute('href'),
        shown: [...document.querySelectorAll<HTMLElement>('[data-language-offer]')]
          .filter((offer) => !offer.hidden)
          .map((offer) => offer.lang),
      }),
      null
    )
  ).toEqual({ href: '/ru/about?ref=e2e#mission', shown: ['ru'] })

  await visitor.click('[data-language-offer="ru"] button')
  await until(visitor, (selector) => !document.querySelector(selector), '[data-language-offered]', {
    what: 'the offer to close',
  })
  await visitor.open('/enterprises')
  expect(await visitor.run(isShown, '[data-language-offer="ru"]')).toBe(false)
  expect(
    await visitor.run(() => document.documentElement.hasAttribute('data-language-offered'), null)
  ).toBe(false)
})
