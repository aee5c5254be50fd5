/** The contact form's shared schema (src/shared/contact-schema.ts): every rule of spec section 5. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ContactSchema, validateContact, type ContactErrors } from '../../src/shared/contact-schema'

const valid = { name: 'Anna', email: 'anna@example.com', comments: 'Hello there' }

function errorsFor(input: unknown): ContactErrors {
  const result = validateContact(input)
  return result.ok ? {} : result.errors
}

describe('contact schema: name', () => {
  it.each([
    ['Latin', 'Anna Smith'],
    ['Cyrillic', 'Анна Петрова'],
    ['Armenian', 'Անի Սարգսյան'],
    ['a hyphen', 'Mary-Jane'],
    ['an apostrophe', "O'Brien"],
    ['a typographic apostrophe', 'D’Artagnan'],
    ['an Armenian apostrophe', 'Ս՚ուրբ'],
    ['exactly 2 characters', 'Ли'],
    ['exactly 20 characters', 'Աաաաաաաաաաաաաաաաաաաա'],
  ])('accepts %s', (_, name) => {
    expect(validateContact({ ...valid, name })).toEqual({ ok: true, contact: { ...valid, name } })
  })

  it.each([
    ['Latin', '  Anna  ', 'Anna'],
    ['Cyrillic', '\tАнна ', 'Анна'],
    ['Armenian', ' Անի\n', 'Անի'],
  ])('trims a %s name', (_, name, trimmed) => {
    expect(validateContact({ ...valid, name })).toEqual({ ok: true, contact: { ...valid, name: trimmed } })
  })

  it.each([
    ['empty', ''],
    ['only spaces', '     '],
    ['missing', undefined],
    ['not a string', 42],
  ])('is required when %s', (_, name) => {
    expect(errorsFor({ ...valid, name }).name).toBe('contact.requiredName')
  })

  it.each(['A', 'Ж', 'Ա', ' Ա '])('is at least 2 characters: %j', (name) => {
    expect(errorsFor({ ...valid, name }).name).toBe('contact.nameTooShort')
  })

  it.each([
    ['Latin', 'Maximilian Alexander Smith'],
    ['Cyrillic', 'Александр Константинович'],
    ['Armenian', 'Արտավազդ Մկրտչյանյանցյան'],
  ])('is at most 20 characters (%s)', (_, name) => {
    expect(name.length).toBeGreaterThan(20)
    expect(errorsFor({ ...valid, name }).name).toBe('contact.nameTooLong')
  })

  it.each(['Anna3', 'Анна!', 'Անի_Ս', 'a@b', '--', "' '", 'Ann\nSmith', '<b>Ann</b>'])(
    'allows only letters, spaces, hyphens and apostrophes: %j',
    (name) => {
      expect(errorsFor({ ...valid, name }).name).toBe('contact.invalidName')
    },
  )
})

describe('contact schema: email', () => {
  it.each(['anna@example.com', 'a.b+c@mail.example.am', "o'brien@example.co.uk"])('accepts %s', (email) => {
    expect(validateContact({ ...valid, email })).toMatchObject({ ok: true })
  })

  it('trims', () => {
    expect(validateContact({ ...valid, email: '  anna@example.com ' })).toMatchObject({ ok: true, contact: { email: 'anna@example.com' } })
  })

  it.each(['', '   ', undefined, null])('is required: %j', (email) => {
    expect(errorsFor({ ...valid, email }).email).toBe('contact.requiredEmail')
  })

  it.each(['anna', 'anna@', '@example.com', 'anna@example', 'a..b@example.com', '.anna@example.com', 'anna@-example.com', 'анна@пример.рф', `${'a'.repeat(250)}@example.com`])(
    'must be valid: %j',
    (email) => {
      expect(errorsFor({ ...valid, email }).email).toBe('contact.invalidEmail')
    },
  )

  it.each(['anna smith@example.com', 'anna@exa,mple.com', '<anna@example.com>', 'anna;@example.com'])(
    'tells invalid characters apart: %j',
    (email) => {
      expect(errorsFor({ ...valid, email }).email).toBe('contact.emailInvalidChars')
    },
  )
})

describe('contact schema: comments', () => {
  it.each([
    ['Latin', 'We would like a quote.'],
    ['Cyrillic', 'Хотим узнать цену.'],
    ['Armenian', 'Ցանկանում ենք իմանալ գինը։'],
    ['exactly 2 characters', 'ok'],
    ['exactly 500 characters', 'ա'.repeat(500)],
    ['line breaks', 'Line one\nLine two'],
  ])('accepts %s', (_, comments) => {
    expect(validateContact({ ...valid, comments })).toEqual({ ok: true, contact: { ...valid, comments } })
  })

  it('trims', () => {
    expect(validateContact({ ...valid, comments: '\n  Hi there \n' })).toMatchObject({ ok: true, contact: { comments: 'Hi there' } })
  })

  it.each(['', '   ', '\n\t\n', undefined])('is required: %j', (comments) => {
    expect(errorsFor({ ...valid, comments }).comments).toBe('contact.requiredMessage')
  })

  it.each(['a', 'Ж', ' Ա '])('is at least 2 characters: %j', (comments) => {
    expect(errorsFor({ ...valid, comments }).comments).toBe('contact.messageTooShort')
  })

  it('is at most 500 characters, counted after trimming', () => {
    expect(errorsFor({ ...valid, comments: 'я'.repeat(501) }).comments).toBe('contact.messageTooLong')
    expect(validateContact({ ...valid, comments: ` ${'я'.repeat(500)} ` })).toMatchObject({ ok: true })
  })
})

describe('contact schema: the whole form', () => {
  it('gives exactly the three trimmed fields, dropping anything else', () => {
    expect(validateContact({ ...valid, name: ' Anna ', website: 'x', extra: 1 })).toEqual({ ok: true, contact: valid })
  })

  it('says "fill out all fields" when any field is empty', () => {
    expect(errorsFor({ ...valid, email: ' ' })).toEqual({ email: 'contact.requiredEmail', form: 'contact.fillAllFields' })
    expect(errorsFor({})).toEqual({
      name: 'contact.requiredName',
      email: 'contact.requiredEmail',
      comments: 'contact.requiredMessage',
      form: 'contact.fillAllFields',
    })
  })

  it('does not say it when every field is filled but invalid', () => {
    expect(errorsFor({ name: 'A', email: 'x', comments: 'y' })).toEqual({
      name: 'contact.nameTooShort',
      email: 'contact.invalidEmail',
      comments: 'contact.messageTooShort',
    })
  })

  it('gives one message per field', () => {
    const result = ContactSchema.safeParse({ name: '', email: 'anna@example.com', comments: 'Hi' })
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['name', 'contact.requiredName'],
      ['', 'contact.fillAllFields'],
    ])
  })

  it.each([null, 'text', 42, [], ['a', 'b']])('reads %j as an empty form', (input) => {
    expect(errorsFor(input).form).toBe('contact.fillAllFields')
  })

  it('never throws, and anything it accepts follows every rule (property)', () => {
    const fieldValue = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ maxLength: 600 }), fc.anything())
    const input = fc.oneof(fc.anything(), fc.record({ name: fieldValue, email: fieldValue, comments: fieldValue }, { requiredKeys: [] }))
    fc.assert(
      fc.property(input, (value) => {
        const result = ContactSchema.safeParse(value)
        if (!result.success) {
          expect(result.error.issues.every((issue) => issue.message.startsWith('contact.'))).toBe(true)
          return
        }
        const { name, email, comments } = result.data
        expect(Object.keys(result.data).sort()).toEqual(['comments', 'email', 'name'])
        for (const text of [name, email, comments]) expect(text).toBe(text.trim())
        expect(name.length).toBeGreaterThanOrEqual(2)
        expect(name.length).toBeLessThanOrEqual(20)
        expect(comments.length).toBeGreaterThanOrEqual(2)
        expect(comments.length).toBeLessThanOrEqual(500)
        expect(email).toContain('@')
      }),
      { numRuns: 2000 },
    )
  })

  it('accepts every well-formed message (property)', () => {
    const letters = fc.constantFrom(...'AbcЖжЯяԱաՔքéß'.split(''))
    const name = fc.string({ unit: letters, minLength: 2, maxLength: 20 })
    const comments = fc.string({ minLength: 2, maxLength: 500 }).filter((text) => text.trim().length >= 2)
    const email = fc.stringMatching(/^[a-z0-9]{1,10}([._+-][a-z0-9]{1,10}){0,2}@[a-z0-9]{1,10}(-[a-z0-9]{1,10})?\.[a-z]{2,6}$/)
    fc.assert(
      fc.property(name, email, comments, (n, e, c) => {
        const result = validateContact({ name: n, email: e, comments: c })
        expect(result).toEqual({ ok: true, contact: { name: n, email: e, comments: c.trim() } })
      }),
    )
  })
})
