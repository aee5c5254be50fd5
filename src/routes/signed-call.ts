/**
 * The guard every operator call shares (the publish hook, the contact resend): rate limited per
 * client with PUBLISH_RATE_LIMITER, a bounded body, PUBLISH_SECRET's signature
 * (publish-signature.ts), then a JSON body the call's schema accepts. A refusal touches nothing:
 *
 *   429 over the rate limit; 413 over `maxBytes`; 503 when PUBLISH_SECRET is not set; 401 for a
 *   missing, malformed, expired, wrong or replayed signature; 400 for a body that is not JSON or
 *   that the schema refuses.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { z } from 'zod'
import type { AppEnv } from '../env'
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyPublishCall } from './publish-signature'

export type SignedCallOptions = {
  /** Prefix of the rate limiter's key, so each call has a budget of its own. */
  name: string
  maxBytes: number
  /** The 429's error text. */
  tooMany: string
  /** The 503's error text when PUBLISH_SECRET is not set. */
  notConfigured: string
}

/** The rate limit and the body limit, before the body is read. */
export function signedCallGuards({
  name,
  maxBytes,
  tooMany,
}: SignedCallOptions): [MiddlewareHandler<AppEnv>, MiddlewareHandler<AppEnv>] {
  return [
    async (c, next) => {
      const client = c.req.header('CF-Connecting-IP') ?? 'unknown'
      const { success } = await c.env.PUBLISH_RATE_LIMITER.limit({ key: `${name}:${client}` })
      if (!success) return c.json({ error: tooMany }, 429, { 'Retry-After': '60' })
      return next()
    },
    bodyLimit({
      maxSize: maxBytes,
      onError: (c) => c.json({ error: `body over ${maxBytes} bytes` }, 413),
    }),
  ]
}

/**
 * The signed body, parsed by `schema`; or the refusal to answer with. `invalid` is the 400's body
 * when the schema refuses it.
 */
export async function readSignedBody<Schema extends z.ZodType>(
  c: Context<AppEnv>,
  options: { schema: Schema; notConfigured: string; invalid: Record<string, unknown> }
): Promise<{ ok: true; data: z.infer<Schema> } | { ok: false; response: Response }> {
  const secret = c.env.PUBLISH_SECRET
  if (!secret) return { ok: false, response: c.json({ error: options.notConfigured }, 503) }
  const body = await c.req.text()
  const verdict = await verifyPublishCall({
    secret,
    body,
    timestamp: c.req.header(TIMESTAMP_HEADER),
    signature: c.req.header(SIGNATURE_HEADER),
    kv: c.env.CONTENT_CACHE,
  })
  if (!verdict.ok)
    return { ok: false, response: c.json({ error: `signature ${verdict.reason}` }, 401) }
  let parsed: unknown
  try {
    parsed = body.trim() ? JSON.parse(body) : {}
  } catch {
    return { ok: false, response: c.json({ error: 'body is not JSON' }, 400) }
  }
  const request = options.schema.safeParse(parsed)
  if (!request.success) return { ok: false, response: c.json(options.invalid, 400) }
  return { ok: true, data: request.data }
}
