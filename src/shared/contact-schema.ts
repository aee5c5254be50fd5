/**
 * The contact form's one schema (spec section 5), shared by the form island (as
 * `#contact-validation`) and the POST routes, which load it on the first message. Written with
 * `zod/mini` so the browser ships a few KB of it. The fields, limits and message keys, which pages
 * need without validating, are in ./contact-fields.ts (re-exported here).
 *
 * Every message is a dictionary key (STYLE.md section 6), translated where it is shown. The schema
 * never fails on the shape of its input: a value that is not an object reads as {}, a field that is
 * not a string reads as '', so arbitrary input gives field messages, never a throw.
 *
 * What it forwards is valid text: lone UTF-16 surrogates become U+FFFD, line breaks are
 * '\n', control characters other than newline and tab are refused in the name and the comments,
 * bidirectional and zero-width formatting characters count for nothing (a comment of only those is
 * empty), lengths are counted in what a visitor sees as characters (grapheme clusters), and e-mail
 * addresses keep to RFC 5321's limits.
 */
import * as z from 'zod/mini'
import {
  COMMENTS_INPUT_MAX,
  CONTACT_FIELDS,
  EMAIL_INPUT_MAX,
  NAME_INPUT_MAX,
  type ContactErrors,
  type ContactMessageKey,
} from './contact-fields'

export * from './contact-fields'

/**
 * Letters and combining marks of any script, spaces, hyphens and apostrophes; at least one letter,
 * and no mark without a letter before it.
 */
const NAME_PATTERN = /^(?=.*\p{L})(?!\p{M})[\p{L}\p{M} '’ʼ՚-]+$/u
/** Control characters other than newline and tab. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/
/**
 * Bidirectional controls and zero-width characters: invisible, so they count for nothing.
 * https://www.unicode.org/reports/tr9/#Directional_Formatting_Characters
 */
const INVISIBLE = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu
/** White space and invisible characters at either end. */
const EDGES =
  /^[\s\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]+|[\s\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]+$/gu
/** RFC 5321 section 4.5.3.1: local part and domain label limits (the 254 in all is EMAIL_INPUT_MAX). */
const EMAIL_LOCAL_MAX = 64
const EMAIL_LABEL_MAX = 63
/** Characters no address may hold, told apart from a merely malformed one. */
const EMAIL_CHARACTERS = /^[^\s<>()[\]\\,;:"]*$/
/**
 * zod's own e-mail shape, minus quoted local parts and labels ending in '-'. Written out because
 * `z.regexes.email` pulls every zod pattern into the browser bundle.
 */
const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+.-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/

// Once a field is empty it shows only its 'required' message; `when` (rather than `abort`) keeps
// the object's 'fill out all fields' check running. https://zod.dev/api#refinements ("when").
const ifFilled = { when: (payload: z.core.ParsePayload) => payload.value !== '' }

/**
 * Valid text as typed: lone surrogates become U+FFFD (they cannot be encoded to send), line breaks
 * '\n' (a form posts a textarea's as CRLF), white space and invisible characters at the ends removed.
 */
export function cleanText(value: unknown): string {
  if (typeof value !== 'string') return ''
  return value
    .replace(/\p{Cs}/gu, '\ufffd')
    .replace(/\r\n?/g, '\n')
    .replace(EDGES, '')
}

/** How many characters a visitor sees: grapheme clusters, bidirectional and zero-width characters not counted. */
export function visibleLength(text: string): number {
  const visible = text.replace(INVISIBLE, '')
  if (typeof Intl.Segmenter !== 'function') return Array.from(visible).length
  let count = 0
  for (const _ of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(visible))
    count += 1
  return count
}

/** Whether an address keeps to the local part and label limits (the total is checked apart). */
function withinEmailLimits(email: string): boolean {
  const at = email.lastIndexOf('@')
  return (
    at <= EMAIL_LOCAL_MAX &&
    email
      .slice(at + 1)
      .split('.')
      .every((label) => label.length <= EMAIL_LABEL_MAX)
  )
}

/** A cleaned text field (see cleanText): anything that is not a string reads as '' and is required. */
function field(required: ContactMessageKey, ...checks: z.core.$ZodCheck<string>[]) {
  return z.pipe(z.transform(cleanText), z.string().check(z.minLength(1, required), ...checks))
}

const visibleAtLeast = (min: number, error: ContactMessageKey) =>
  z.refine<string>((text) => visibleLength(text) >= min, { error, ...ifFilled })
const visibleAtMost = (max: number, error: ContactMessageKey) =>
  z.refine<string>((text) => visibleLength(text) <= max, { error, ...ifFilled })

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Built on its first use (`z.lazy` keeps what it built), not when the module loads: most requests
 * a worker answers never validate a message (decision 0028).
 */
export const ContactSchema = z.lazy(() =>
  z.pipe(
    z.transform((value: unknown) => (isRecord(value) ? value : {})),
    z
      .object({
        name: field(
          'contact.requiredName',
          visibleAtLeast(2, 'contact.nameTooShort'),
          visibleAtMost(20, 'contact.nameTooLong'),
          // The input's hard limit, in code units: twenty letters cannot carry a pile of marks each.
          z.maxLength(NAME_INPUT_MAX, { error: 'contact.nameTooLong', ...ifFilled }),
          z.regex(NAME_PATTERN, { error: 'contact.invalidName', ...ifFilled })
        ),
        email: field(
          'contact.requiredEmail',
          z.regex(EMAIL_CHARACTERS, { error: 'contact.emailInvalidChars', ...ifFilled }),
          z.maxLength(EMAIL_INPUT_MAX, { error: 'contact.invalidEmail', ...ifFilled }),
          z.refine<string>(withinEmailLimits, { error: 'contact.invalidEmail', ...ifFilled }),
          z.regex(EMAIL_PATTERN, { error: 'contact.invalidEmail', ...ifFilled })
        ),
        comments: field(
          'contact.requiredMessage',
          visibleAtLeast(2, 'contact.messageTooShort'),
          z.maxLength(COMMENTS_INPUT_MAX, { error: 'contact.messageTooLong', ...ifFilled }),
          z.refine<string>((text) => !CONTROL.test(text), {
            error: 'contact.invalidMessage',
            ...ifFilled,
          })
        ),
      })
      .check(
        z.refine((contact) => CONTACT_FIELDS.every((name) => contact[name] !== ''), {
          error: 'contact.fillAllFields',
          when: () => true,
        })
      )
  )
)

/** A message as the backend receives it: exactly these three trimmed fields. */
export type Contact = z.output<typeof ContactSchema>

/** The schema's issues as one dictionary key per field. */
export function contactErrors(error: z.core.$ZodError): ContactErrors {
  const errors: ContactErrors = {}
  for (const issue of error.issues) {
    const [first] = issue.path
    const target = CONTACT_FIELDS.find((name) => name === first) ?? 'form'
    errors[target] ??= issue.message as ContactMessageKey
  }
  return errors
}

/** Validates `input`: the trimmed message, or one dictionary key per failing field. */
export function validateContact(
  input: unknown
): { ok: true; contact: Contact } | { ok: false; errors: ContactErrors } {
  const result = ContactSchema.safeParse(input)
  return result.success
    ? { ok: true, contact: result.data }
    : { ok: false, errors: contactErrors(result.error) }
}
