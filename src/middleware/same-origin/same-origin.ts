/**
 * Refuses cross-site requests (403) to the routes it guards, so another site cannot make a
 * visitor's browser post to them. A request passes only when it says where it comes from and
 * that is here:
 * - its `Origin` header, if sent, is this site's own origin;
 * - its `Sec-Fetch-Site` header, if sent, is `same-origin`;
 * - and it sends at least one of the two. Every browser this site supports sends `Origin` with
 *   every POST (https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/Origin), so a
 *   request with neither is refused, as OWASP advises
 *   (https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html).
 *
 * Why not `hono/csrf`: it checks only the content types an HTML form can send (form-urlencoded,
 * multipart, text/plain), so a cross-site `application/json` POST (POST /api/contact) passes it
 * unchecked, and it admits a request when either header alone looks right.
 * tests/worker/same-origin.test.ts holds the two side by side (docs/decisions/0002-page-cache.md,
 * "Security headers").
 */
import type { Context, Env, MiddlewareHandler } from 'hono'
import { createMiddleware } from 'hono/factory'

export type SameOriginOptions<E extends Env> = {
  /** The answer to a refused request; default: 403 'Forbidden'. */
  onRefused?: (c: Context<E>) => Response | Promise<Response>
}

export function sameOrigin<E extends Env>(
  options: SameOriginOptions<E> = {}
): MiddlewareHandler<E> {
  return createMiddleware<E>(async (c, next) => {
    if (isSameOrigin(c.req.raw)) return next()
    return options.onRefused ? options.onRefused(c) : c.text('Forbidden', 403)
  })
}

function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get('Origin')
  const site = request.headers.get('Sec-Fetch-Site')
  if (origin === null && site === null) return false
  if (origin !== null && origin !== new URL(request.url).origin) return false
  return site === null || site === 'same-origin'
}
