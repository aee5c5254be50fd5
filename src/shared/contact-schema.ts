/**
 * The contact form's one schema (spec section 5), shared by the form island and the POST routes
 * (through `zValidator`). Written with `zod/mini` so the browser ships a few KB of it.
 *
 * Every message is a dictionary key (STYLE.md section 6), translated where it is shown. The schema
 * never fails on the shape of its input: a value that is not an object reads as {}, a field that is
 * not a string reads as '', so arbitrary input gives field messages, never a throw.
 */
import * as z from 'zod/mini'
import type { TranslationKey } from './i18n'

/** Input hard limits (spec section 5); the form's `maxLength` attributes. */
export const NAME_INPUT_MAX = 50
export const EMAIL_INPUT_MAX = 254
export const COMMENTS_INPUT_MAX = 500

/**
 * The hidden field bots fill in and people never see. A submission that fills it is answered like
 * a success and never forwarded (issue 5).
 */
export const HONEYPOT_FIELD = 'website'

export const CONTACT_FIELDS = ['name', 'email', 'comments'] as const
export type ContactField = (typeof CONTACT_FIELDS)[number]
/** The form's input as typed, before validation. */
export type ContactValues = Record<ContactField, string>

/** Every message the schema can give, so a caller can hand the island exactly these texts. */
export const CONTACT_MESSAGE_KEYS = [
  'contact.requiredName',
  'contact.nameTooShort',
  'contact.nameTooLong',
  'contact.invalidName',
  'contact.requiredEmail',
  'contact.emailInvalidChars',
  'contact.invalidEmail',
  'contact.requiredMessage',
  'contact.messageTooShort',
  'contact.messageTooLong',
  'contact.fillAllFields',
] as const satisfies readonly TranslationKey[]
export type ContactMessageKey = (typeof CONTACT_MESSAGE_KEYS)[number]

/** Letters and combining marks of any script, spaces, hyphens and apostrophes; at least one letter. */
const NAME_PATTERN = /^(?=.*\p{L})[\p{L}\p{M} '’ʼ՚-]+$/u
/** Characters no address may hold, told apart from a merely malformed one. */
const EMAIL_CHARACTERS = /^[^\s<>()[\]\\,;:"]*$/
/**
 * zod's own e-mail shape, minus quoted local parts and labels ending in '-'. Written out because
 * `z.regexes.email` pulls every zod pattern into the browser bundle.
 */
const EMAIL_PATTERN = /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+.-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/

// Once a field is empty it shows only its 'required' message; `when` (rather than `abort`) keeps
// the object's 'fill out all fields' check running. https://zod.dev/api#refinements ("when").
const ifFilled = { when: (payload: z.core.ParsePayload) => payload.value !== '' }

/** A trimmed text field: anything that is not a string reads as '' and is required. */
function field(required: ContactMessageKey, ...checks: z.core.$ZodCheck<string>[]) {
  return z.pipe(
    z.transform((value: unknown) => (typeof value === 'string' ? value : '')),
    z.string().check(z.trim(), z.minLength(1, required), ...checks),
  )
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export const ContactSchema = z.pipe(
  z.transform((value: unknown) => (isRecord(value) ? value : {})),
  z
    .object({
      name: field(
        'contact.requiredName',
        z.minLength(2, { error: 'contact.nameTooShort', ...ifFilled }),
        z.maxLength(20, { error: 'contact.nameTooLong', ...ifFilled }),
        z.regex(NAME_PATTERN, { error: 'contact.invalidName', ...ifFilled }),
      ),
      email: field(
        'contact.requiredEmail',
        z.regex(EMAIL_CHARACTERS, { error: 'contact.emailInvalidChars', ...ifFilled }),
        z.maxLength(EMAIL_INPUT_MAX, { error: 'contact.invalidEmail', ...ifFilled }),
        z.regex(EMAIL_PATTERN, { error: 'contact.invalidEmail', ...ifFilled }),
      ),
      comments: field(
        'contact.requiredMessage',
        z.minLength(2, { error: 'contact.messageTooShort', ...ifFilled }),
        z.maxLength(500, { error: 'contact.messageTooLong', ...ifFilled }),
      ),
    })
    .check(
      z.refine((contact) => CONTACT_FIELDS.every((name) => contact[name] !== ''), {
        error: 'contact.fillAllFields',
        when: () => true,
      }),
    ),
)

/** A message as the backend receives it: exactly these three trimmed fields. */
export type Contact = z.output<typeof ContactSchema>

/** One message per field (the first), plus `form` for 'fill out all fields'. */
export type ContactErrors = Partial<Record<ContactField | 'form', ContactMessageKey>>

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
export function validateContact(input: unknown): { ok: true; contact: Contact } | { ok: false; errors: ContactErrors } {
  const result = ContactSchema.safeParse(input)
  return result.success ? { ok: true, contact: result.data } : { ok: false, errors: contactErrors(result.error) }
}
