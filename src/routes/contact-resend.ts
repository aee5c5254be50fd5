/**
 * POST /api/contact/resend: an operator puts dead letters (src/contact/dead-letters.ts) back on
 * the contact queue, after fixing whatever kept the backend from taking them. Signed like the
 * publish hook (publish-signature.ts, PUBLISH_SECRET) and rate limited with it;
 * `npm run contact:resend` (scripts/ops/resend-contact.mjs) signs and sends it.
 *
 *   body: {} (every dead letter) or {"ids": ["<id>", ...]}
 *   200 {resent, failed, missing}: ids (failed: the queue refused them, they stay kept; missing: no
 *   such dead letter); 400 malformed body; 401 bad, missing, expired or replayed signature; 413 body
 *   over RESEND_BODY_LIMIT; 429 over PUBLISH_RATE_LIMITER; 503 when PUBLISH_SECRET is not set.
 */
import { Hono } from 'hono'
import { resendDeadLetters } from '../contact'
import type { AppEnv } from '../env'
import { CONTACT_RESEND_PATH } from '../shared/site-paths'
import { readSignedBody, signedCallGuards } from './signed-call'

/** Bytes: room for a few hundred ids. */
export const RESEND_BODY_LIMIT = 16 * 1024

export const contactResend = new Hono<AppEnv>()

const RESEND_CALL = {
  name: 'resend',
  maxBytes: RESEND_BODY_LIMIT,
  tooMany: 'too many calls',
  notConfigured: 'not configured: set the PUBLISH_SECRET secret',
}

const [rateLimit, limitBody] = signedCallGuards(RESEND_CALL)

contactResend.post(CONTACT_RESEND_PATH, rateLimit, limitBody, async (c) => {
  c.header('Cache-Control', 'no-store')
  const request = await readSignedBody(c, {
    schema: (await import('./signed-call-schemas')).ResendSchema,
    notConfigured: RESEND_CALL.notConfigured,
    invalid: { error: 'body must be {} or {"ids": ["<id>", ...]}' },
  })
  if (!request.ok) return request.response
  return c.json(await resendDeadLetters(c.env, request.data.ids))
})
