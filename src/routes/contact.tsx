/**
 * The contact form's POST routes (spec sections 4, 5, 7 and 8).
 *
 * - `POST /api/contact`: JSON from the form island; answers JSON `{ ok, message?, errors? }`.
 * - `POST /contact-us`, `/en/contact-us`, `/ru/contact-us`: the plain form, without JavaScript;
 *   answers 303 to the page with `?sent=1`, or the page again with the visitor's input and the
 *   messages (422), or with the failure (429, 502, 504).
 *
 * Each request passes, in order: same origin (403), content type (415), body size (413), a readable
 * body (400), the honeypot (answered like a success, never forwarded), the shared schema (422), the
 * per-client rate limit (429), and only then reaches the contact outbox (src/contact/): delivered
 * to the backend at once, or queued when the backend cannot take it now (both answered as a
 * success), or refused by the backend (502 with its message); 502 or 504 when the backend failed
 * and the queue could not take the message either. Nothing here is cached.
 *
 * A message from a project's contact page carries the project's id (the form's `project` field):
 * when it names a project, the comments the backend receives end with the project's title and page
 * address, and the visitor's text must leave room for them (422 otherwise); any other value is
 * ignored (src/contact/project-reference.ts). Each message kept writes one VITALS data point
 * (src/contact/message-data-point.ts).
 */
import { zValidator } from '@hono/zod-validator'
import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { every } from 'hono/combine'
import { createMiddleware } from 'hono/factory'
import { acceptMessage } from '../contact'
import {
  commentsRoom,
  findReferencedProject,
  projectNote,
  withProjectNote,
  writeMessagePoint,
} from '../contact'
import type { Project } from '../content/projects'
import { contentFor } from '../freshness'
import type { AppEnv } from '../env'
import { sameOrigin } from '../middleware/same-origin'
import { reportError } from '../observability'
import {
  CONTACT_FIELDS,
  isHoneypotFilled,
  PROJECT_FIELD,
  type ContactErrors,
  type ContactValues,
} from '../shared/contact-fields'
import type { Contact } from '../shared/contact-schema'
import { DEFAULT_LNG, isLng, localizePath, PREFIXED_LANGUAGES, type Lng } from '../shared/languages'
import { CONTACT_API_PATH, CONTACT_PAGE_PATH, SENT_PARAM } from '../shared/site-paths'
import type { ContactFormState } from '../views/components/contact-form'
import { renderContactPage } from './pages'

/** Room for the longest valid form, url-encoded (500 three-byte characters are 4.5 KB), not much more. */
export const MAX_BODY_BYTES = 8 * 1024
/** The rate limiter's period in wrangler.toml (`simple.period`), sent as Retry-After. */
export const RATE_LIMIT_PERIOD_SECONDS = 60

type Refusal = 400 | 403 | 413 | 415
type Refuse = (c: Context<AppEnv>, status: Refusal) => Response
type Outcome = { ok: true } | { ok: false; status: 429 | 502 | 504; message?: string }

const REASONS: Record<Refusal, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
}

const noStore = createMiddleware<AppEnv>(async (c, next) => {
  await next()
  c.header('Cache-Control', 'no-store')
})

/** The checks before the body is read: origin, content type, size; then the parsed body and the honeypot. */
function guards(
  mediaType: string,
  refuse: Refuse,
  onTrap: (c: Context<AppEnv>) => Response
): MiddlewareHandler<AppEnv> {
  return every(
    noStore,
    sameOrigin<AppEnv>({ onRefused: (c) => refuse(c, 403) }),
    createMiddleware<AppEnv>(async (c, next) => {
      const type = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase()
      return type === mediaType ? next() : refuse(c, 415)
    }),
    bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => refuse(c as Context<AppEnv>, 413) }),
    createMiddleware<AppEnv>(async (c, next) => {
      // Read once here; the validator reads Hono's cached copy. `all`: a field sent twice is a list,
      // so `website=spam&website=` is not read as its last, empty value.
      const body: unknown = await (
        mediaType === 'application/json' ? c.req.json() : c.req.parseBody({ all: true })
      ).catch(() => undefined)
      if (body === undefined) return refuse(c, 400)
      return isHoneypotFilled(body) ? onTrap(c) : next()
    })
  )
}

/** What the validator of `target` hands the route: the message as the shared schema makes it. */
type Validated<T extends 'json' | 'form'> = {
  in: { [K in T]: Record<string, unknown> }
  out: { [K in T]: Contact }
}

/**
 * The body as the shared schema makes it (@hono/zod-validator), or `onInvalid`'s answer. The
 * schema, with zod, is loaded on the first message, not when a new isolate starts (decision 0033):
 * the validator is built around it then.
 */
function validContact<T extends 'json' | 'form'>(
  target: T,
  onInvalid: (
    c: Context<AppEnv>,
    errors: ContactErrors,
    input: unknown
  ) => Response | Promise<Response>
): MiddlewareHandler<AppEnv, string, Validated<T>> {
  return async (c, next) => {
    const { ContactSchema, contactErrors } = await import('../shared/contact-schema')
    const validate = zValidator(target, ContactSchema, (result, hookContext) => {
      if (!result.success)
        // The hook's Context is typed without the app's bindings; it is this route's Context.
        return onInvalid(hookContext as Context<AppEnv>, contactErrors(result.error), result.data)
    })
    // The same request: the validator's Context type is its own generic one.
    return validate(c as unknown as Parameters<typeof validate>[0], next)
  }
}

/** The project a message is about, with the note its comments end with. */
type About = { project: Project; note: string }

/** What the form's hidden field names, when it is a project (src/contact/project-reference.ts). */
async function aboutOf(c: Context<AppEnv>, body: unknown, lng: Lng): Promise<About | null> {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  const project = await findReferencedProject(contentFor(c), fields[PROJECT_FIELD])
  if (!project) return null
  return { project, note: projectNote(project, lng, new URL(c.req.url).origin) }
}

/** The visitor's text leaves no room for the note: the backend's 500 characters hold both. */
function tooLongFor(about: About | null, contact: Contact): ContactErrors | null {
  return about && contact.comments.length > commentsRoom(about.note)
    ? { comments: 'contact.messageTooLong' }
    : null
}

/**
 * Hands a valid message to the outbox, unless this client has sent too many (spec section 7:
 * success is 200), with its project's note; a message kept writes its data point.
 */
async function forward(
  c: Context<AppEnv>,
  contact: Contact,
  { lng, about }: { lng: Lng; about: About | null }
): Promise<Outcome> {
  const { name, email, comments } = about ? withProjectNote(contact, about.note) : contact
  const client = c.req.header('CF-Connecting-IP') ?? 'unknown'
  const { success } = await c.env.CONTACT_RATE_LIMITER.limit({ key: `contact:${client}` })
  if (!success) return { ok: false, status: 429 }
  // The content client logs and reports a refused or failed send (src/freshness/content-client.ts).
  const accepted = await acceptMessage({
    env: c.env,
    content: contentFor(c),
    client,
    message: { name, email, comments },
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    onNotKept: (error) => {
      console.error(
        `contact: message not kept, the backend and the queue both failed: ${String(error)}`
      )
      reportError(c, error, 'unexpected', { contact: 'not-kept' })
    },
  })
  if (accepted.ok) {
    console.log(`contact: ${accepted.id}: ${accepted.via}`)
    if (accepted.via !== 'repeat')
      writeMessagePoint(c, { page: CONTACT_PAGE_PATH, lng, project: about?.project.id ?? '' })
    return { ok: true }
  }
  return {
    ok: false,
    status: accepted.status,
    ...(accepted.message && { message: accepted.message }),
  }
}

function retryAfter(c: Context<AppEnv>, outcome: Outcome) {
  if (!outcome.ok && outcome.status === 429)
    c.header('Retry-After', String(RATE_LIMIT_PERIOD_SECONDS))
}

export const contact = new Hono<AppEnv>()

contact.post(
  CONTACT_API_PATH,
  guards(
    'application/json',
    (c, status) => c.json({ ok: false }, status),
    (c) => c.json({ ok: true })
  ),
  validContact('json', (c, errors) => c.json({ ok: false, errors }, 422)),
  async (c) => {
    const body: unknown = await c.req.json()
    const fields = (typeof body === 'object' && body !== null ? body : {}) as { lng?: unknown }
    const lng = typeof fields.lng === 'string' && isLng(fields.lng) ? fields.lng : DEFAULT_LNG
    const contact = c.req.valid('json')
    const about = await aboutOf(c, body, lng)
    const errors = tooLongFor(about, contact)
    if (errors) return c.json({ ok: false, errors }, 422)
    const outcome = await forward(c, contact, { lng, about })
    retryAfter(c, outcome)
    if (outcome.ok) return c.json({ ok: true })
    return c.json(
      { ok: false, ...(outcome.message && { message: outcome.message }) },
      outcome.status
    )
  }
)

/** The plain form, mounted under each language's contact page address. */
const form = new Hono<AppEnv>()

form.post(
  CONTACT_PAGE_PATH,
  guards('application/x-www-form-urlencoded', (c, status) => c.text(REASONS[status], status), sent),
  validContact('form', async (c, errors, input) => {
    const about = await aboutOf(c, input, c.var.lng)
    c.status(422)
    return renderContactPage(c, { values: valuesOf(input), errors }, about?.project)
  }),
  async (c) => {
    const contact = c.req.valid('form')
    const about = await aboutOf(c, await c.req.parseBody({ all: true }), c.var.lng)
    const errors = tooLongFor(about, contact)
    if (errors) {
      c.status(422)
      return renderContactPage(c, { values: contact, errors }, about?.project)
    }
    const outcome = await forward(c, contact, { lng: c.var.lng, about })
    if (outcome.ok) return sent(c)
    retryAfter(c, outcome)
    c.status(outcome.status)
    const state: ContactFormState = {
      values: contact,
      outcome:
        outcome.status === 429
          ? { kind: 'rate-limited' }
          : { kind: 'failed', message: outcome.message },
    }
    return renderContactPage(c, state, about?.project)
  }
)

/** Redirect after post: the page shows the success notice, and reloading it sends nothing again. */
function sent(c: Context<AppEnv>) {
  return c.redirect(`${localizePath(CONTACT_PAGE_PATH, c.var.lng)}?${SENT_PARAM}=1`, 303)
}

/** The visitor's input as typed, for the form shown again (a field sent twice, or as a file, reads as ''). */
function valuesOf(data: unknown): ContactValues {
  const fields = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>
  return Object.fromEntries(
    CONTACT_FIELDS.map((name) => [name, typeof fields[name] === 'string' ? fields[name] : ''])
  ) as ContactValues
}

for (const lng of PREFIXED_LANGUAGES) contact.route(`/${lng}`, form)
contact.route('/', form)
