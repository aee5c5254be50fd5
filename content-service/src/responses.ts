/**
 * The two answer shapes of the service: `{"payload": ...}` on success and `{"message": ...}` on
 * failure (spec sections 3 and 4 read exactly these fields).
 */
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

export function payloadResponse(c: Context, payload: unknown): Response {
  return c.json({ payload })
}

export function errorResponse(c: Context, status: ContentfulStatusCode, message: string): Response {
  return c.json({ message }, status)
}
