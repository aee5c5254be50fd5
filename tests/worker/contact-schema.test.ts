/** The contact form's shared schema (src/shared/contact-schema.ts): every rule of spec section 5. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  ContactSchema,
  validateContact,
  visibleLength,
  type ContactErrors,
} from '../../src/shared/contact-schema'

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
    expect(validateContact({ ...valid, name })).toEqual({
      ok: true,
      contact: { ...valid, name: trimmed },
    })
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
    }
  )
})

describe('contact schema: email', () => {
  it.each(['anna@example.com', 'a.b+c@mail.example.am', "o'brien@example.co.uk"])(
    'accepts %s',
    (email) => {
      expect(validateContact({ ...valid, email })).toMatchObject({ ok: true })
    }
  )

  it('trims', () => {
    expect(validateContact({ ...valid, email: '  anna@example.com ' })).toMatchObject({
      ok: true,
      contact: { email: 'anna@example.com' },
    })
  })

  it.each(['', '   ', undefined, null])('is required: %j', (email) => {
    expect(errorsFor({ ...valid, email }).email).toBe('contact.requiredEmail')
  })

  it.each([
    'anna',
    'anna@',
    '@example.com',
    'anna@example',
    'a..b@example.com',
    '.anna@example.com',
    'anna@-example.com',
    'анна@пример.рф',
    `${'a'.repeat(250)}@example.com`,
  ])('must be valid: %j', (email) => {
    expect(errorsFor({ ...valid, email }).email).toBe('contact.invalidEmail')
  })

  it.each([
    'anna smith@example.com',
    'anna@exa,mple.com',
    '<anna@example.com>',
    'anna;@example.com',
  ])('tells invalid characters apart: %j', (email) => {
    expect(errorsFor({ ...valid, email }).email).toBe('contact.emailInvalidChars')
  })
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
    expect(validateContact({ ...valid, comments })).toEqual({
      ok: true,
      contact: { ...valid, comments },
    })
  })

  it('trims', () => {
    expect(validateContact({ ...valid, comments: '\n  Hi there \n' })).toMatchObject({
      ok: true,
      contact: { comments: 'Hi there' },
    })
  })

  it.each(['', '   ', '\n\t\n', undefined])('is required: %j', (comments) => {
    expect(errorsFor({ ...valid, comments }).comments).toBe('contact.requiredMessage')
  })

  it.each(['a', 'Ж', ' Ա '])('is at least 2 characters: %j', (comments) => {
    expect(errorsFor({ ...valid, comments }).comments).toBe('contact.messageTooShort')
  })

  it('is at most 500 characters, counted after trimming', () => {
    expect(errorsFor({ ...valid, comments: 'я'.repeat(501) }).comments).toBe(
      'contact.messageTooLong'
    )
    expect(validateContact({ ...valid, comments: ` ${'я'.repeat(500)} ` })).toMatchObject({
      ok: true,
    })
  })
})

describe('contact schema: the whole form', () => {
  it('gives exactly the three trimmed fields, dropping anything else', () => {
    expect(validateContact({ ...valid, name: ' Anna ', website: 'x', extra: 1 })).toEqual({
      ok: true,
      contact: valid,
    })
  })

  it('says "fill out all fields" when any field is empty', () => {
    expect(errorsFor({ ...valid, email: ' ' })).toEqual({
      email: 'contact.requiredEmail',
      form: 'contact.fillAllFields',
    })
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
    const fieldValue = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ maxLength: 600 }),
      fc.anything()
    )
    const input = fc.oneof(
      fc.anything(),
      fc.record({ name: fieldValue, email: fieldValue, comments: fieldValue }, { requiredKeys: [] })
    )
    fc.assert(
      fc.property(input, (value) => {
        const result = ContactSchema.safeParse(value)
        if (!result.success) {
          expect(result.error.issues.every((issue) => issue.message.startsWith('contact.'))).toBe(
            true
          )
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
      { numRuns: 2000 }
    )
  })

  it('accepts every well-formed message (property)', () => {
    const letters = fc.constantFrom(...'AbcЖжЯяԱաՔքéß'.split(''))
    const name = fc.string({ unit: letters, minLength: 2, maxLength: 20 })
    const comments = fc
      .string({ minLength: 2, maxLength: 500 })
      .filter((text) => text.trim().length >= 2)
    const email = fc.stringMatching(
      /^[a-z0-9]{1,10}([._+-][a-z0-9]{1,10}){0,2}@[a-z0-9]{1,10}(-[a-z0-9]{1,10})?\.[a-z]{2,6}$/
    )
    fc.assert(
      fc.property(name, email, comments, (n, e, c) => {
        const result = validateContact({ name: n, email: e, comments: c })
        expect(result).toEqual({ ok: true, contact: { name: n, email: e, comments: c.trim() } })
      })
    )
  })
})

describe('contact schema: hostile text', () => {
  it.each([
    ['a decomposed accent', 'Zoe\u0308 Ann'],
    ['Devanagari with its marks', 'अनुष्का'],
    ['Thai with its marks', 'สมชาย'],
    ['Georgian', 'ნინო'],
    ['20 letters, each with a combining mark (40 code units)', 'a\u0301'.repeat(20)],
  ])('accepts a name of %s, counting what a visitor sees', (_, name) => {
    expect(validateContact({ ...valid, name })).toEqual({ ok: true, contact: { ...valid, name } })
  })

  it('refuses a name over the 50-character input limit however few clusters it shows', () => {
    expect(errorsFor({ ...valid, name: `A${'\u0301'.repeat(60)}na` }).name).toBe(
      'contact.nameTooLong'
    )
  })

  it('counts a name in grapheme clusters: 21 accented letters are too long, 1 is too short', () => {
    expect(errorsFor({ ...valid, name: 'a\u0301'.repeat(21) }).name).toBe('contact.nameTooLong')
    expect(errorsFor({ ...valid, name: 'e\u0301' }).name).toBe('contact.nameTooShort')
  })

  it.each([
    ['a mark without a letter', '\u0301Anna'],
    ['a zero-width joiner', 'An\u200dna'],
    ['a right-to-left override', 'An\u202ena'],
    ['a control character', 'An\u0007na'],
    ['a lone surrogate', 'Ann\udfffa'],
    ['an emoji', 'Anna 🙂'],
  ])('refuses a name with %s', (_, name) => {
    expect(errorsFor({ ...valid, name }).name).toBe('contact.invalidName')
  })

  it.each([
    ['a lone low surrogate', 'Hi \udfff there', 'Hi \ufffd there'],
    ['a lone high surrogate', 'Hi \ud800', 'Hi \ufffd'],
    ['CRLF line breaks', 'One\r\nTwo\rThree', 'One\nTwo\nThree'],
    ['a tab', 'One\tTwo', 'One\tTwo'],
    ['zero-width characters at the ends', '\u200b\ufeffHello\u200b', 'Hello'],
  ])('forwards comments with %s as valid text', (_, comments, forwarded) => {
    expect(validateContact({ ...valid, comments })).toEqual({
      ok: true,
      contact: { ...valid, comments: forwarded },
    })
  })

  it.each(['\u0000', '\u0007', '\u001b[31m', '\u007f', '\u0085', '\u009b'])(
    'refuses a control character %j in the comments',
    (control) => {
      expect(errorsFor({ ...valid, comments: `Hello ${control} there` }).comments).toBe(
        'contact.invalidMessage'
      )
    }
  )

  it.each(['\u202e\u202d', '\u200b\u200b\u200b', '\u2066\u2069', '\ufeff \u200e'])(
    'reads a comment of only invisible characters %j as empty',
    (comments) => {
      expect(errorsFor({ ...valid, comments }).comments).toBe('contact.requiredMessage')
    }
  )

  it('does not count bidi or zero-width characters towards the 2-character minimum', () => {
    expect(errorsFor({ ...valid, comments: 'a\u202e\u200bb'.slice(0, 3) }).comments).toBe(
      'contact.messageTooShort'
    )
    expect(errorsFor({ ...valid, comments: 'o\u200bk' })).toEqual({})
  })

  it.each([
    ['a 64-character local part', `${'a'.repeat(64)}@example.com`, true],
    ['a 65-character local part', `${'a'.repeat(65)}@example.com`, false],
    ['a 63-character label', `anna@${'b'.repeat(63)}.example.com`, true],
    ['a 64-character label', `anna@${'b'.repeat(64)}.example.com`, false],
    [
      '254 characters in all',
      `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.am`,
      true,
    ],
    [
      '255 characters in all',
      `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(59)}.am`,
      false,
    ],
  ])('keeps e-mail addresses to the standard: %s', (_, email, ok) => {
    expect(email.length).toBeLessThanOrEqual(255)
    if (_.endsWith('in all')) expect(email.length).toBe(ok ? 254 : 255)
    expect(validateContact({ ...valid, email }).ok).toBe(ok)
  })
})

/** Spec section 5 on hostile text, checked on what the backend would receive. */
function expectForwardable({
  name,
  email,
  comments,
}: {
  name: string
  email: string
  comments: string
}) {
  const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
  const CONTROL_EXCEPT_NL_TAB = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/
  const INVISIBLE = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g
  const graphemes = (text: string) =>
    [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text.replace(INVISIBLE, ''))]
      .length
  for (const text of [name, email, comments]) {
    expect(LONE_SURROGATE.test(text), JSON.stringify(text)).toBe(false)
    expect(text).toBe(text.trim())
    expect(text.replace(INVISIBLE, '')).not.toBe('')
  }
  expect(CONTROL_EXCEPT_NL_TAB.test(name) || CONTROL_EXCEPT_NL_TAB.test(comments)).toBe(false)
  expect(comments).not.toContain('\r')
  expect(name).toMatch(/^[\p{L}\p{M} '’ʼ՚-]+$/u)
  expect(name).toMatch(/\p{L}/u)
  expect(graphemes(name)).toBeGreaterThanOrEqual(2)
  expect(graphemes(name)).toBeLessThanOrEqual(20)
  expect(name.length).toBeLessThanOrEqual(50)
  expect(graphemes(comments)).toBeGreaterThanOrEqual(2)
  expect(comments.length).toBeLessThanOrEqual(500)
  const at = email.lastIndexOf('@')
  expect(at).toBeGreaterThan(0)
  expect(at).toBeLessThanOrEqual(64)
  expect(email.length).toBeLessThanOrEqual(254)
  for (const label of email.slice(at + 1).split('.')) expect(label.length).toBeLessThanOrEqual(63)
}

describe('contact schema: what it accepts is forwardable (property)', () => {
  const tricky = fc.constantFrom(
    'a',
    'Ж',
    'Ա',
    'é',
    'e\u0301',
    '\u0301',
    ' ',
    '-',
    "'",
    '@',
    '.',
    'x@y.am',
    '\n',
    '\r\n',
    '\r',
    '\t',
    '\u0000',
    '\u0007',
    '\u007f',
    '\u0085',
    '\ud800',
    '\udfff',
    '\ud83d\ude42',
    '\u200b',
    '\u200d',
    '\u202e',
    '\u2066',
    '\ufeff',
    '\u061c',
    'ab'
  )
  const text = fc.oneof(
    fc.array(tricky, { maxLength: 30 }).map((parts) => parts.join('')),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 30 })
  )
  const email = fc.oneof(
    fc.emailAddress(),
    fc
      .tuple(fc.emailAddress(), fc.array(tricky, { maxLength: 4 }))
      .map(([address, extra]) => `${extra.join('')}${address}${extra.join('')}`),
    text
  )

  it('for any input the validator accepts, the message follows every rule of spec section 5', () => {
    fc.assert(
      fc.property(text, email, text, (name, address, comments) => {
        const result = validateContact({ name, email: address, comments })
        if (result.ok) expectForwardable(result.contact)
      }),
      { numRuns: 5000 }
    )
  })

  it('accepts names of letters and marks of any script, counted in graphemes', () => {
    const letter = fc.constantFrom(
      'a',
      'Ж',
      'Ա',
      'ნ',
      'अ',
      'ส',
      'e\u0301',
      'a\u0308',
      'ö',
      'ß',
      'Ω'
    )
    fc.assert(
      fc.property(fc.array(letter, { minLength: 2, maxLength: 20 }), (letters) => {
        const name = letters.join('')
        expect(visibleLength(name)).toBe(letters.length)
        expect(validateContact({ ...valid, name })).toEqual({
          ok: true,
          contact: { ...valid, name },
        })
      })
    )
  })
})
