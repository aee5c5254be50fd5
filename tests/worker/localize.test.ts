import { describe, expect, it } from 'vitest'
import { localizer, pickLocalized } from '../../src/content/localize'
import { HomePayloadSchema, PageMetaSchema } from '../../src/content/schemas'

describe('pickLocalized', () => {
  const record = { title: 'Homes', ru_title: 'Дома', arm_title: 'Տներ', en_title: '' }

  it('reads the ru_ field for Russian and the arm_ field for Armenian', () => {
    expect(pickLocalized(record, 'title', 'ru')).toBe('Дома')
    expect(pickLocalized(record, 'title', 'hy')).toBe('Տներ')
  })

  it('reads the unprefixed field for English when en_ is empty', () => {
    expect(pickLocalized(record, 'title', 'en')).toBe('Homes')
  })

  it('prefers an en_ meta field for English', () => {
    const meta = PageMetaSchema.parse({ title: 'Plain', en_title: 'English title' })
    expect(pickLocalized(meta, 'title', 'en')).toBe('English title')
  })

  it('falls back to the unprefixed field when the localized one is missing or blank', () => {
    expect(pickLocalized({ title: 'Homes', ru_title: '   ' }, 'title', 'ru')).toBe('Homes')
    expect(
      pickLocalized({ title: 'Homes' } as { title: string; arm_title?: string }, 'title', 'hy')
    ).toBe('Homes')
  })

  it('gives an empty string for a missing text and an empty list for a missing list', () => {
    const home = HomePayloadSchema.parse({})
    expect(pickLocalized(home, 'servicesTitle', 'ru')).toBe('')
    expect(pickLocalized(home, 'banner', 'hy')).toEqual([])
  })

  it('picks the language banner list when it has entries, else the plain list', () => {
    const home = HomePayloadSchema.parse({
      banner: [{ title: 'Main' }],
      ru_banner: [{ title: 'Главный' }],
      arm_banner: [],
    })
    const ru = localizer('ru')
    expect(ru(home, 'banner')[0]?.title).toBe('Главный')
    expect(pickLocalized(home, 'banner', 'hy')[0]?.title).toBe('Main')
    expect(pickLocalized(home, 'banner', 'en')[0]?.title).toBe('Main')
  })
})
