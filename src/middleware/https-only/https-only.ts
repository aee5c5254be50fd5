/**
 * HTTPS only: a request that reached the site over plain HTTP is answered with a permanent redirect
 * to the same address over HTTPS, before anything else runs, so no page and no form is ever served
 * in the clear (docs/decisions/0016-https-only.md). HSTS (src/middleware/security-headers) then keeps
 * a browser on HTTPS, but only once it has been there: the redirect is what gets it there.
 *
 * The scheme the visitor used is what the platform says it was: Cloudflare's `CF-Visitor`
 * (`{"scheme":"http"}`), else `X-Forwarded-Proto` (the convention of any TLS front, such as the
 * Observatory audit's), else the request URL's own scheme (Workers give the visitor's URL).
 * Loopback addresses (localhost, 127.0.0.1, [::1]) reached directly, with no front saying otherwise,
 * are local development (`npm start`, the tests, the e2e and soak servers) and stay on HTTP.
 */
import { createMiddleware } from 'hono/factory'
import { isLoopbackHost } from '../../shared/loopback'

/** 301 keeps search engines' and browsers' memory of the move; 308 also keeps a POST a POST, with its body. */
const PERMANENT = { read: 301, write: 308 } as const

/**
 * Browsers may keep the redirect a day; shared caches never: Workers Cache keys responses by path
 * and query, not by scheme, so a stored redirect would answer the HTTPS address too, in a loop.
 */
const REDIRECT_CACHE_CONTROL = 'private, max-age=86400'

export function httpsOnly() {
  return createMiddleware(async (c, next) => {
    const url = new URL(c.req.url)
    const forwarded = forwardedScheme(c.req.raw.headers)
    const scheme = forwarded ?? url.protocol.slice(0, -1)
    if (scheme !== 'http') return next()
    if (!forwarded && isLoopbackHost(url.hostname)) return next()
    url.protocol = 'https:'
    const status =
      c.req.method === 'GET' || c.req.method === 'HEAD' ? PERMANENT.read : PERMANENT.write
    return c.body(null, status, { Location: url.href, 'Cache-Control': REDIRECT_CACHE_CONTROL })
  })
}

/** The scheme a front or the platform reports ('http' or 'https'), or null when none does. */
export function forwardedScheme(headers: Headers): 'http' | 'https' | null {
  const visitor = schemeOf(cfVisitorScheme(headers.get('CF-Visitor')))
  if (visitor) return visitor
  // A chain of proxies lists one scheme each; the first is the visitor's.
  return schemeOf(headers.get('X-Forwarded-Proto')?.split(',')[0])
}

function cfVisitorScheme(value: string | null): unknown {
  if (!value) return null
  try {
    return (JSON.parse(value) as { scheme?: unknown } | null)?.scheme
  } catch {
    return null
  }
}

function schemeOf(value: unknown): 'http' | 'https' | null {
  const scheme = typeof value === 'string' ? value.trim().toLowerCase() : ''
  return scheme === 'http' || scheme === 'https' ? scheme : null
}
