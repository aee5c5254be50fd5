/**
 * The contact page's form: translates every text the form island shows and renders the island.
 * Labels, placeholders, title and button texts come from the page content (spec section 2) and
 * fall back to the dictionary; schema messages come from the dictionary only.
 */
import type { ContactFormProps } from '../../../client/islands/contact-form'
import { localizer } from '../../content/localize'
import type { ContactData } from '../../content/schemas'
import {
  CONTACT_MESSAGE_KEYS,
  type ContactErrors,
  type ContactValues,
} from '../../shared/contact-fields'
import { getT, type Translate } from '../../shared/i18n'
import { localizePath, type Lng } from '../../shared/languages'
import { Island } from '../island'

/** The island posts JSON here (src/routes/contact.tsx). */
export const CONTACT_API_PATH = '/api/contact'

/** What the last plain-form post left for the page to show; empty on a first visit. */
export type ContactFormState = {
  /** The visitor's input, shown again. */
  values?: ContactValues
  /** The schema's verdict on it. */
  errors?: ContactErrors
  /** How the post ended; `message` is the backend's own, when it gave one. */
  outcome?: { kind: 'sent' } | { kind: 'rate-limited' } | { kind: 'failed'; message?: string }
}

export function ContactFormArea({
  lng,
  contact,
  state = {},
}: {
  lng: Lng
  contact: ContactData
  state?: ContactFormState
}) {
  return <Island name="contact-form" props={contactFormProps(lng, contact, state)} />
}

/** The island's props: only strings the browser needs (STYLE.md section 5). */
export function contactFormProps(
  lng: Lng,
  contact: ContactData,
  state: ContactFormState
): ContactFormProps {
  const pick = localizer(lng)
  const t = getT(lng)
  return {
    action: localizePath('/contact-us', lng),
    endpoint: CONTACT_API_PATH,
    texts: {
      title: pick(contact, 'contactFormTitle') || t('contact.formTitle'),
      nameLabel: pick(contact, 'nameLabel') || t('contact.nameLabel'),
      namePlaceholder: pick(contact, 'namePlaceholder') || t('contact.namePlaceholder'),
      emailLabel: pick(contact, 'emailLabel') || t('contact.emailLabel'),
      emailPlaceholder: pick(contact, 'emailPlaceholder') || t('contact.emailPlaceholder'),
      messageLabel: pick(contact, 'messageLabel') || t('contact.messageLabel'),
      messagePlaceholder: pick(contact, 'messagePlaceholder') || t('contact.messagePlaceholder'),
      send: pick(contact, 'sendButtonText') || t('contact.send'),
      sending: pick(contact, 'sendingText') || t('contact.sending'),
      success: t('contact.success'),
      error: t('contact.error'),
      tooManyRequests: t('contact.tooManyRequests'),
      honeypotLabel: t('contact.honeypotLabel'),
      close: t('ui.close'),
      notifications: t('ui.notifications'),
      messages: Object.fromEntries(
        CONTACT_MESSAGE_KEYS.map((key) => [key, t(key)])
      ) as ContactFormProps['texts']['messages'],
    },
    values: state.values,
    errors: state.errors,
    notice: state.outcome && noticeFor(state.outcome, t),
  }
}

function noticeFor(
  outcome: NonNullable<ContactFormState['outcome']>,
  t: Translate
): ContactFormProps['notice'] {
  if (outcome.kind === 'sent') return { kind: 'success', text: t('contact.success') }
  if (outcome.kind === 'rate-limited') return { kind: 'error', text: t('contact.tooManyRequests') }
  return { kind: 'error', text: outcome.message || t('contact.error') }
}
