/**
 * The contact page's form: translates every text the form island shows and renders the island.
 * Labels, placeholders, title and button texts come from the page content (spec section 2) and
 * fall back to the dictionary; schema messages come from the dictionary only.
 */
import type { ContactFormProps } from '../../../client/islands/contact-form'
import { commentsRoom, projectNote, projectTitle } from '../../contact'
import { localizer } from '../../content/localize'
import type { Project } from '../../content/projects'
import type { ContactData } from '../../content/schemas'
import {
  COMMENTS_INPUT_MAX,
  CONTACT_MESSAGE_KEYS,
  type ContactErrors,
  type ContactValues,
} from '../../shared/contact-fields'
import { getT, type Translate } from '../../shared/i18n'
import { localizePath, type Lng } from '../../shared/languages'
import { CONTACT_API_PATH, CONTACT_PAGE_PATH } from '../../shared/site-paths'
import { Island } from '../island'

/** What the last plain-form post left for the page to show; empty on a first visit. */
export type ContactFormState = {
  /** The visitor's input, shown again. */
  values?: ContactValues
  /** The schema's verdict on it. */
  errors?: ContactErrors
  /** How the post ended; `message` is the backend's own, when it gave one. */
  outcome?: { kind: 'sent' } | { kind: 'rate-limited' } | { kind: 'failed'; message?: string }
}

/** The project the form asks about: the page names it above the form, and the message carries it. */
export type FormProject = { project: Project; origin: string }

export function ContactFormArea({
  lng,
  contact,
  state = {},
  project,
  origin = '',
}: {
  lng: Lng
  contact: ContactData
  state?: ContactFormState
  /** The project the visitor asks about (a project page's link), if any. */
  project?: Project | undefined
  /** The site's origin, for the project's page address in the message. */
  origin?: string
}) {
  return (
    <>
      {project ? (
        <p className="contact-form-area__about">
          {getT(lng)('contact.aboutProject', { project: projectTitle(project, lng) })}
        </p>
      ) : null}
      <Island
        name="contact-form"
        props={contactFormProps(lng, contact, state, project && { project, origin })}
      />
    </>
  )
}

/** The island's props: only strings the browser needs (STYLE.md section 5). */
export function contactFormProps(
  lng: Lng,
  contact: ContactData,
  state: ContactFormState,
  about?: FormProject
): ContactFormProps {
  const pick = localizer(lng)
  const t = getT(lng)
  // The project's note shares the backend's 500 characters (src/contact/project-reference.ts).
  const commentsMax = about
    ? commentsRoom(projectNote(about.project, lng, about.origin))
    : COMMENTS_INPUT_MAX
  const messages = Object.fromEntries(
    CONTACT_MESSAGE_KEYS.map((key) => [key, t(key)])
  ) as ContactFormProps['texts']['messages']
  if (about)
    messages['contact.messageTooLong'] = t('contact.messageTooLongAbout', { max: commentsMax })
  return {
    action: localizePath(CONTACT_PAGE_PATH, lng),
    endpoint: CONTACT_API_PATH,
    lng,
    ...(about && { project: about.project.id }),
    commentsMax,
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
      messages,
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
