/**
 * The editors' token (EDITOR_TOKEN): a request carries it as its Authorization header, bare as the
 * site sends its tokens (spec section 7) or as `Bearer <token>`. Compared in constant time.
 */
import type { Context } from 'hono'
import type { AppEnv } from './env'

/** Whether the request carries the editors' token; always false when the service has none. */
export function carriesEditorToken(c: Context<AppEnv>): boolean {
  const token = c.env.EDITOR_TOKEN
  const header = c.req.header('Authorization')?.trim()
  if (!token || !header) return false
  const given = header.replace(/^Bearer\s+/i, '')
  const encoder = new TextEncoder()
  const [a, b] = [encoder.encode(given), encoder.encode(token)]
  return a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b)
}
