/**
 * The contact form with JavaScript, in every engine (tests/support/e2e/engines): an empty submit is
 * answered in the page, in the page's language, without a request; a valid one is sent, the form
 * clears and the success toast shows. contact.spec.ts covers the rest in Chromium (the sending
 * state, backend errors, the plain form without JavaScript, what the backend stored).
 */
import { en } from '../../src/shared/i18n/en'
import { hy } from '../../src/shared/i18n/hy'
import { ru } from '../../src/shared/i18n/ru'
import { expect, test } from '../support/e2e/engines/engine-fixtures'
import { attributes } from '../support/e2e/engines/in-page'
import { until } from '../support/e2e/engines/visitor'

const LANGUAGES = [
  { lng: 'hy', path: '/contact-us', t: hy },
  { lng: 'en', path: '/en/contact-us', t: en },
  { lng: 'ru', path: '/ru/contact-us', t: ru },
] as const

const pageSays = (text: string) => document.body.innerText.includes(text)

for (const { lng, path, t } of LANGUAGES) {
  test(`in ${lng}, an empty submit marks the fields and says what is missing, sending nothing`, async ({
    visitor,
  }) => {
    await visitor.open(path)
    await visitor.click('.contact-form__submit')
    await until(visitor, pageSays, t.contact.fillAllFields, {
      what: `"${t.contact.fillAllFields}"`,
    })
    for (const text of [t.contact.requiredName, t.contact.requiredEmail, t.contact.requiredMessage])
      expect(await visitor.run(pageSays, text), text).toBe(true)
    expect(
      await visitor.run(attributes, [
        ['#contact-name', 'aria-invalid'],
        ['#contact-email', 'aria-invalid'],
      ])
    ).toEqual(['true', 'true'])
    expect(await visitor.run(() => document.activeElement?.id, null)).toBe('contact-name')
    expect(await visitor.run(pageSays, t.contact.success)).toBe(false)
  })
}

test('a valid message is sent, the form clears and the success toast shows', async ({
  visitor,
}) => {
  await visitor.open('/en/contact-us')
  await visitor.type('#contact-name', "Mary-Jane O'Neil")
  await visitor.type('#contact-email', 'visitor@example.com')
  await visitor.type('#contact-comments', `A question from ${visitor.engine}, run ${Date.now()}`)
  await visitor.click('.contact-form__submit')
  await until(visitor, pageSays, en.contact.success, {
    what: 'the success toast',
    timeoutMs: 15_000,
  })
  expect(
    await visitor.run(
      () =>
        ['contact-name', 'contact-email', 'contact-comments'].map(
          (id) => (document.getElementById(id) as HTMLInputElement).value
        ),
      null
    )
  ).toEqual(['', '', ''])
})
