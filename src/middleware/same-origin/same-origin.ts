/**
 * Refuses cross-site requests (403) to the routes it guards, so another site cannot make a
 * visitor's browser post to them. A request passes when
 * - its `Origin` header, if sent, is this site's own origin, and
 * - its `Sec-Fetch-Site` header, if sent, is `same-origin`.
 * A request with neither header passes: only browsers make cross-site requests on a visitor's
 * behalf, and browsers send `Origin` with every POST
 * (https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/Origin).
 * Unlike `hono/csrf`, it checks every request it guards, whatever its content type.
 */
import type { Context, Env, MiddlewareHandler } from 'hono'
import { createMiddleware } from 'hono/factory'

export type SameOriginOptions<E extends Env> = {
  /** The answer to a refused request; default: 403 'Forbidden'. */
  onRefused?: (c: Context<E>) => Response | Promise<Response>
}

export function sameOrigin<E extends Env>(options: SameOriginOptions<E> = {}): MiddlewareHandler<E> {
  return createMiddleware<E>(async (c, next) => {
    if (isSameOrigin(c.req.raw)) return next()
    return options.onRefused ? options.onRefused(c) : c.text('Forbidden', 403)
  })
}

function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get('Origin')
  if (origin !== null && origin !== new URL(request.url).origin) return false
  const site = request.headers.get('Sec-Fetch-Site')
  return site === null || site === 'same-origin'
}
