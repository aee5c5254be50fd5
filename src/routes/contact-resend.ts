/**
 * POST /api/contact/resend: an operator puts dead letters (src/contact/dead-letters.ts) back on
 * the contact queue, after fixing whatever kept the backend from taking them. Signed like the
 * publish hook (publish-signature.ts, PUBLISH_SECRET) and rate limited with it;
 * `npm run contact:resend` (scripts/resend-contact.mjs) signs and sends it.
 *
 *   body: {} (every dead letter) or {"ids": ["<id>", ...]}
 *   200 {resent, failed, missing}: ids (failed: the queue refused them, they stay kept; missing: no
 *   such dead letter); 400 malformed body; 401 bad, missing, expired or replayed signature; 413 body
 *   over RESEND_BODY_LIMIT; 429 over PUBLISH_RATE_LIMITER; 503 when PUBLISH_SECRET is not set.
 */
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { z } from 'zod'
import { resendDeadLetters } from '../contact'
import type { AppEnv } from '../env'
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyPublishCall } from './publish-signature'

export const RESEND_PATH = '/api/contact/resend'
/** Bytes: room for a few hundred ids. */
export const RESEND_BODY_LIMIT = 16 * 1024

const ResendSchema = z.strictObject({ ids: z.array(z.string().min(1).max(64)).min(1).max(300).optional() })

export const contactResend = new Hono<AppEnv>()

contactResend.post(
  RESEND_PATH,
  async (c, next) => {
    const client = c.req.header('CF-Connecting-IP') ?? 'unknown'
    const { success } = await c.env.PUBLISH_RATE_LIMITER.limit({ key: `resend:${client}` })
    if (!success) return c.json({ error: 'too many calls' }, 429, { 'Retry-After': '60' })
    return next()
  },
  bodyLimit({ maxSize: RESEND_BODY_LIMIT, onError: (c) => c.json({ error: `body over ${RESEND_BODY_LIMIT} bytes` }, 413) }),
  async (c) => {
    c.header('Cache-Control', 'no-store')
    const secret = c.env.PUBLISH_SECRET
    if (!secret) return c.json({ error: 'not configured: set the PUBLISH_SECRET secret' }, 503)
    const body = await c.req.text()
    const verdict = await verifyPublishCall({
      secret,
      body,
      timestamp: c.req.header(TIMESTAMP_HEADER),
      signature: c.req.header(SIGNATURE_HEADER),
      kv: c.env.CONTENT_CACHE,
    })
    if (!verdict.ok) return c.json({ error: `signature ${verdict.reason}` }, 401)
    let parsed: unknown
    try {
      parsed = body.trim() ? JSON.parse(body) : {}
    } catch {
      return c.json({ error: 'body is not JSON' }, 400)
    }
    const request = ResendSchema.safeParse(parsed)
    if (!request.success) return c.json({ error: 'body must be {} or {"ids": ["<id>", ...]}' }, 400)
    return c.json(await resendDeadLetters(c.env, request.data.ids))
  },
)
