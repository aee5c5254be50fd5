/**
 * POST messages: validates the contact form (spec section 5) and stores it in D1.
 * 200 `{"payload": {"id": n}}`; 400 `{"message": ...}` for a malformed body or invalid field.
 *
 * With an `Idempotency-Key` header (1 to 255 visible ASCII characters; the site sends each
 * message's id), a message is stored once per key: the same message sent again with its key gets
 * 200 with the stored id and `Idempotent-Replayed: true`; the key with different fields gets 422.
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { MessageSchema } from '../message-schema'
import { insertMessage } from '../queries'
import { errorResponse, payloadResponse } from '../responses'

export const messages = new Hono<AppEnv>()

/** Stripe's and the IETF draft's shape of a key, within a column's sensible size. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/

messages.post('/messages', async (c) => {
  const idempotencyKey = c.req.header('Idempotency-Key')?.trim()
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    return errorResponse(c, 400, 'Idempotency-Key must be 1 to 255 visible ASCII characters')
  }
  let body: unknown
  try {
    body = JSON.parse(await c.req.text())
  } catch {
    return errorResponse(c, 400, 'The request body must be JSON: {"name", "email", "comments"}')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return errorResponse(
      c,
      400,
      'The request body must be a JSON object: {"name", "email", "comments"}'
    )
  }
  const parsed = MessageSchema.safeParse(body)
  if (!parsed.success) {
    const fields = body as Record<string, unknown>
    const allEmpty = ['name', 'email', 'comments'].every(
      (key) => typeof fields[key] !== 'string' || fields[key].trim() === ''
    )
    return errorResponse(
      c,
      400,
      allEmpty
        ? 'Please fill out all fields'
        : (parsed.error.issues[0]?.message ?? 'Invalid message')
    )
  }
  const outcome = await insertMessage(c.env.CONTENT_DB, parsed.data, idempotencyKey)
  if (outcome.kind === 'conflict')
    return errorResponse(c, 422, 'This Idempotency-Key was already used for a different message')
  if (outcome.kind === 'replayed') c.header('Idempotent-Replayed', 'true')
  return payloadResponse(c, { id: outcome.id })
})
