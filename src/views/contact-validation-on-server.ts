/**
 * What the worker bundle has for `#contact-validation` (wrangler.toml `alias`; elsewhere it is
 * src/shared/contact-schema.ts, package.json `imports`). The server renders the contact form island
 * (client/islands/contact-form.tsx) but never runs its handlers, the one place it validates, so a
 * new isolate does not evaluate zod for it (docs/decisions/0033-names-not-kept-modules-loaded-on-first-use.md).
 * The contact routes load the real schema on the first message.
 */
import type { validateContact as validate } from '../shared/contact-schema'

export const validateContact: typeof validate = () => {
  throw new Error(
    'the contact form validates only in the browser: the worker renders it without the schema'
  )
}
