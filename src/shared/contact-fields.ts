/**
 * The contact form's fields, input limits, honeypot and message keys (spec section 5), without the
 * schema: what the contact page and the form island render. The schema (./contact-schema.ts, with
 * zod) is loaded only where a message is validated (decision 0033).
 */
import type { TranslationKey } from './i18n'
import { localizePath, type Lng } from './languages'
import { CONTACT_PAGE_PATH } from './site-paths'

/** Input hard limits (spec section 5); the form's `maxLength` attributes. */
export const NAME_INPUT_MAX = 50
export const EMAIL_INPUT_MAX = 254
export const COMMENTS_INPUT_MAX = 500

/**
 * The hidden field bots fill in and people never see. A submission that fills it is answered like
 * a success and never forwarded.
 */
export const HONEYPOT_FIELD = 'website'

/**
 * Whether the honeypot caught a bot: any value other than an absent or empty field, whatever its
 * type (`1`, `true`, `[]`, `{}`, `null`) or count (a field sent twice arrives as a list).
 */
export function isHoneypotFilled(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false
  const value = (body as Record<string, unknown>)[HONEYPOT_FIELD]
  return value !== undefined && value !== ''
}

/**
 * The project a question is about: the contact page's query parameter and the form's hidden field
 * (docs/decisions/0040-a-message-names-its-project.md). Never one of the message's fields.
 */
export const PROJECT_FIELD = 'project'

/** The query that asks about the project with this id: `?project=1`. */
export function projectQuery(projectId: string): string {
  return `?${PROJECT_FIELD}=${encodeURIComponent(projectId)}`
}

/** The contact page in `lng`, asking about the project with this id: `/en/contact-us?project=1`. */
export function contactPathAbout(projectId: string, lng: Lng): string {
  return `${localizePath(CONTACT_PAGE_PATH, lng)}${projectQuery(projectId)}`
}

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
  'contact.invalidMessage',
  'contact.fillAllFields',
] as const satisfies readonly TranslationKey[]
export type ContactMessageKey = (typeof CONTACT_MESSAGE_KEYS)[number]

/** One message per field (the first), plus `form` for 'fill out all fields'. */
export type ContactErrors = Partial<Record<ContactField | 'form', ContactMessageKey>>
