/**
 * The contact form (spec sections 4, 5 and 8). The server renders it as a real
 * `<form method="post">` that works without JavaScript (src/routes/contact.tsx answers it);
 * hydrated, it validates with the shared schema on submit and then on every change, posts JSON to
 * the site's own /api/contact, and reports the outcome in a toast.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { Lng } from '../../src/shared/languages'
import { wholeWordsStyle } from '../../src/shared/longest-word'
import { toast, Toaster } from '../toasts/toaster'
// The shared schema (src/shared/contact-schema.ts, package.json `imports`). The worker bundle has a
// stand-in (wrangler.toml `alias`): the server renders this form but never validates in it.
import { validateContact } from '#contact-validation'
import {
  COMMENTS_INPUT_MAX,
  EMAIL_INPUT_MAX,
  HONEYPOT_FIELD,
  NAME_INPUT_MAX,
  PROJECT_FIELD,
  type ContactErrors,
  type ContactField,
  type ContactMessageKey,
  type ContactValues,
} from '../../src/shared/contact-fields'

/** Every text the form shows, already translated by the server (STYLE.md section 5). */
export type ContactFormTexts = {
  title: string
  nameLabel: string
  namePlaceholder: string
  emailLabel: string
  emailPlaceholder: string
  messageLabel: string
  messagePlaceholder: string
  send: string
  sending: string
  success: string
  error: string
  tooManyRequests: string
  honeypotLabel: string
  close: string
  /** Name of the toasts' region. */
  notifications: string
  /** The text of every message the schema can give. */
  messages: Record<ContactMessageKey, string>
}

export type ContactFormProps = {
  /** Where the plain form posts: the contact page's own address in the page's language. */
  action: string
  /** Where the hydrated form posts JSON. */
  endpoint: string
  /** The page's language: the project note's language, and the message's in the site's count. */
  lng: Lng
  /** The id of the project the visitor asks about, sent with the message (a hidden field). */
  project?: string
  /**
   * Characters the visitor may write: 500, or less when a project's note shares them
   * (docs/decisions/0040-a-message-names-its-project.md).
   */
  commentsMax: number
  texts: ContactFormTexts
  /** The visitor's input, when the server answers a plain-form post with the form again. */
  values?: ContactValues
  /** The server's verdict on that input: one dictionary key per field. */
  errors?: ContactErrors
  /** The outcome of the last plain-form post, shown above the form. */
  notice?: { kind: 'success' | 'error'; text: string }
}

/** The JSON answer of POST /api/contact. */
type ContactAnswer = { ok?: boolean; message?: string; errors?: ContactErrors }

const EMPTY: ContactValues = { name: '', email: '', comments: '' }
const FIELDS = [
  {
    field: 'name',
    id: 'contact-name',
    type: 'text',
    autoComplete: 'name',
    maxLength: NAME_INPUT_MAX,
  },
  {
    field: 'email',
    id: 'contact-email',
    type: 'email',
    autoComplete: 'email',
    maxLength: EMAIL_INPUT_MAX,
  },
  {
    field: 'comments',
    id: 'contact-comments',
    type: 'textarea',
    autoComplete: undefined,
    // commentsMax on a page that asks about a project.
    maxLength: COMMENTS_INPUT_MAX,
  },
] as const

type Focusable = { focus(): void }
/** A field as the browser holds it: what the visitor typed, React's or not. */
type Field = Focusable & { value: string }

/** The shared schema's verdict, and the room a project's note leaves (the server checks the same). */
function validate(values: ContactValues, commentsMax: number): ReturnType<typeof validateContact> {
  const result = validateContact(values)
  if (result.ok && result.contact.comments.length > commentsMax)
    return { ok: false, errors: { comments: 'contact.messageTooLong' } }
  return result
}

function errorsOf(values: ContactValues, commentsMax: number): ContactErrors {
  const result = validate(values, commentsMax)
  return result.ok ? {} : result.errors
}

export function ContactForm({
  action,
  endpoint,
  lng,
  project,
  commentsMax,
  texts,
  values: initialValues,
  errors: initialErrors,
  notice: initialNotice,
}: ContactFormProps) {
  const [values, setValuesState] = useState<ContactValues>(initialValues ?? EMPTY)
  // The values as last set, ahead of the render: React reports the fields a visitor typed in during
  // hydration as changes in one batch, and each must build on the one before, not on this render's.
  const latest = useRef(values)
  function setValues(next: ContactValues) {
    latest.current = next
    setValuesState(next)
  }
  const [errors, setErrors] = useState<ContactErrors>(initialErrors ?? {})
  // Spec section 5: validate on submit, then on every change.
  const [validating, setValidating] = useState(Object.keys(initialErrors ?? {}).length > 0)
  const [trap, setTrap] = useState('')
  const [submitting, setSubmitting] = useState(false)
  const [notice, setNotice] = useState(initialNotice)
  // A ref, not state: a second submit in the same tick must see the first one at once.
  const inFlight = useRef(false)
  const inputs = useRef<Partial<Record<ContactField, Field | null>>>({})
  const labels = { name: texts.nameLabel, email: texts.emailLabel, comments: texts.messageLabel }
  const placeholders = {
    name: texts.namePlaceholder,
    email: texts.emailPlaceholder,
    comments: texts.messagePlaceholder,
  }

  // The island hydrates when the visitor reaches it (client/islands/registry.ts): what they typed
  // before that is in the fields, not yet in this state (hydration leaves a field's value as it
  // is). Take it in once hydrated, and read the fields themselves on submit: a submit held until
  // hydration (client/triggers.ts) comes before this state has caught up.
  /** The fields' values as the browser holds them, taken into this state where they differ. */
  function catchUp(): ContactValues {
    const typed = Object.fromEntries(
      FIELDS.map(({ field }) => [field, inputs.current[field]?.value ?? latest.current[field]])
    ) as ContactValues
    if (FIELDS.some(({ field }) => typed[field] !== latest.current[field])) setValues(typed)
    return typed
  }

  useEffect(() => void catchUp(), [])

  function change(field: ContactField, value: string) {
    const next = { ...latest.current, [field]: value }
    setValues(next)
    if (validating) setErrors(errorsOf(next, commentsMax))
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (inFlight.current) return
    const result = validate(catchUp(), commentsMax)
    setValidating(true)
    setNotice(undefined)
    if (!result.ok) {
      setErrors(result.errors)
      const first = FIELDS.find(({ field }) => result.errors[field])
      if (first) inputs.current[first.field]?.focus()
      return
    }
    setErrors({})
    inFlight.current = true
    setSubmitting(true)
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({
          ...result.contact,
          [HONEYPOT_FIELD]: trap,
          lng,
          ...(project && { [PROJECT_FIELD]: project }),
        }),
      })
      const answer = (await response.json().catch(() => ({}))) as ContactAnswer
      if (response.status === 200 && answer.ok === true) {
        setValues(EMPTY)
        setValidating(false)
        toast.success(texts.success)
      } else if (response.status === 429) {
        toast.error(texts.tooManyRequests)
      } else {
        if (answer.errors) setErrors(answer.errors)
        toast.error(answer.message || texts.error)
      }
    } catch {
      toast.error(texts.error)
    } finally {
      inFlight.current = false
      setSubmitting(false)
    }
  }

  return (
    <>
      <form
        className="contact-form"
        method="post"
        action={action}
        noValidate
        aria-busy={submitting}
        onSubmit={submit}
      >
        {texts.title && (
          <h2 className="contact-form__title" style={wholeWordsStyle(texts.title)}>
            {texts.title}
          </h2>
        )}
        {notice && (
          <p
            className={`contact-form__notice contact-form__notice--${notice.kind}`}
            role={notice.kind === 'error' ? 'alert' : 'status'}
          >
            {notice.text}
          </p>
        )}
        {errors.form && (
          <p className="contact-form__summary" role="alert">
            {texts.messages[errors.form]}
          </p>
        )}
        {FIELDS.map(({ field, id, type, autoComplete, maxLength }) => {
          const error = errors[field]
          const common = {
            id,
            name: field,
            autoComplete,
            maxLength: field === 'comments' ? Math.min(maxLength, commentsMax) : maxLength,
            placeholder: placeholders[field],
            value: values[field],
            'aria-invalid': error ? true : undefined,
            'aria-describedby': error ? `${id}-error` : undefined,
            ref: (element: unknown) => {
              inputs.current[field] = element as Field | null
            },
            onChange: (event: { target: unknown }) =>
              change(field, (event.target as { value: string }).value),
          }
          return (
            <div
              key={field}
              className={error ? 'contact-form__field has-error' : 'contact-form__field'}
            >
              <label htmlFor={id}>{labels[field]}</label>
              {type === 'textarea' ? (
                <textarea rows={6} {...common} />
              ) : (
                <input type={type} {...common} />
              )}
              {error && (
                <p id={`${id}-error`} className="contact-form__error">
                  {texts.messages[error]}
                </p>
              )}
            </div>
          )
        })}
        {project && <input type="hidden" name={PROJECT_FIELD} value={project} />}
        {/* The honeypot: out of sight (not `display: none`, which some bots skip), of the tab order and of the accessibility tree. */}
        <div className="visually-hidden" aria-hidden="true">
          <label htmlFor="contact-website">{texts.honeypotLabel}</label>
          <input
            id="contact-website"
            name={HONEYPOT_FIELD}
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={trap}
            onChange={(event) => setTrap((event.target as unknown as { value: string }).value)}
          />
        </div>
        <button type="submit" className="contact-form__submit" disabled={submitting}>
          {submitting ? texts.sending : texts.send}
        </button>
      </form>
      <Toaster label={texts.notifications} closeLabel={texts.close} />
    </>
  )
}
