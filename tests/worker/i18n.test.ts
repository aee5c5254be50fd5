import { describe, expect, it } from 'vitest'
import { dictionaries, getT } from '../../src/shared/i18n'
import { LANGUAGES } from '../../src/shared/languages'

function keysOf(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value as object, `${prefix}${key}.`)
  )
}

describe('dictionaries', () => {
  const english = keysOf(dictionaries.en).sort()

  it.each(LANGUAGES)('has every key, non-empty, in %s', (lng) => {
    const dictionary = dictionaries[lng]
    expect(keysOf(dictionary).sort()).toEqual(english)
    for (const key of english) {
      const [group, name] = key.split('.') as [string, string]
      const text = (dictionary as unknown as Record<string, Record<string, string>>)[group]![name]
      expect(text?.trim(), `${lng}: ${key}`).toBeTruthy()
    }
  })

  it('groups texts as contact, footer, meta, the preview and the site ui', () => {
    expect(Object.keys(dictionaries.en).sort()).toEqual([
      'contact',
      'footer',
      'meta',
      'preview',
      'ui',
    ])
  })

  it('keeps the English texts the spec quotes', () => {
    const t = getT('en')
    expect(t('ui.notFoundTitle')).toBe('404')
    expect(t('ui.notFoundSubtitle')).toBe('Page Not Found')
    expect(t('ui.notFoundMessage')).toBe('It looks like you’ve landed in the wrong place.')
    expect(t('ui.goHome')).toBe('Go to Home')
    expect(t('ui.pageNotFound')).toBe('Page not found')
    expect(t('ui.unsupportedLanguage', { language: 'fr' })).toBe('Language "fr" is not supported')
    expect(t('ui.unexpectedError')).toBe('Unexpected Application Error!')
    expect(t('ui.enterprisesTitle')).toBe('Our Enterprises')
    expect(t('ui.enterprisesSubtitle')).toBe('Discover our latest enterprises and projects')
    expect(t('contact.requiredName')).toBe('Please enter your name')
    expect(t('contact.invalidEmail')).toBe('Invalid email format')
    expect(t('contact.fillAllFields')).toBe('Please fill out all fields')
    expect(t('contact.error')).toBe('Something went wrong. Please try again later.')
    expect(t('contact.success')).toBe('Your message has been sent successfully!')
    expect(t('contact.sending')).toBe('Sending...')
    expect(t('contact.send')).toBe('Send Message')
  })

  it('translates per language with interpolation', () => {
    expect(getT('ru')('ui.unsupportedLanguage', { language: 'fr' })).toContain('fr')
    expect(getT('hy')('ui.goHome')).toBe('Գլխավոր էջ')
  })
})
