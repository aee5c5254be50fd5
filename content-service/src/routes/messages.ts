/**
 * POST messages: validates the contact form (spec section 5) and stores it in D1.
 * 200 `{"payload": {"id": n}}`; 400 `{"message": ...}` for a malformed body or invalid field.
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { MessageSchema } from '../message-schema'
import { insertMessage } from '../queries'
import { errorResponse, payloadResponse } from '../responses'

export const messages = new Hono<AppEnv>()

messages.post('/messages', async (c) => {
  let body: unknown
  try {
    body = JSON.parse(await c.req.text())
  } catch {
    return errorResponse(c, 400, 'The request body must be JSON: {"name", "email", "comments"}')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return errorResponse(c, 400, 'The request body must be a JSON object: {"name", "email", "comments"}')
  }
  const parsed = MessageSchema.safeParse(body)
  if (!parsed.success) {
    const fields = body as Record<string, unknown>
    const allEmpty = ['name', 'email', 'comments'].every((key) => typeof fields[key] !== 'string' || fields[key].trim() === '')
    return errorResponse(c, 400, allEmpty ? 'Please fill out all fields' : (parsed.error.issues[0]?.message ?? 'Invalid message'))
  }
  const id = await insertMessage(c.env.CONTENT_DB, parsed.data)
  return payloadResponse(c, { id })
})
