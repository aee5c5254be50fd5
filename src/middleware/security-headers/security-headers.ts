/**
 * The security headers of every response the worker sends: pages, redirects, error pages, 304s
 * and the POST routes. Static files get the same list from public/_headers, which
 * tests/worker/security-headers.test.ts checks against SECURITY_HEADERS.
 *
 * The policy allows no inline script: islands' props sit in <script type="application/json">,
 * which is data, not script (https://www.w3.org/TR/CSP3/#should-block-inline). Inline styles stay
 * allowed: every page inlines the site stylesheet (src/views/assets.tsx), the last-resort 500 page
 * carries its own <style>, and an inline style cannot run code.
 */
import { createMiddleware } from 'hono/factory'

const CSP_DIRECTIVES: Record<string, string> = {
  'default-src': "'self'",
  'script-src': "'self'",
  'style-src': "'self' 'unsafe-inline'",
  // CMS images may be absolute addresses on another host.
  'img-src': "'self' data: https:",
  // Swiper's stylesheet embeds its icon font as a data: URL.
  'font-src': "'self' data:",
  'connect-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'self'",
  'form-action': "'self'",
  'frame-ancestors': "'none'",
}

export const CONTENT_SECURITY_POLICY = Object.entries(CSP_DIRECTIVES)
  .map(([directive, value]) => `${directive} ${value}`)
  .join('; ')

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  // Two years, the minimum for the preload list; `preload` itself is a per-domain decision.
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  // For browsers that predate CSP's frame-ancestors.
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // Only features Chromium knows: an unknown one is logged as a console error on every page.
  'Permissions-Policy': 'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
}

/** Adds SECURITY_HEADERS to the response; a header the route already set is kept. */
export function securityHeaders() {
  return createMiddleware(async (c, next) => {
    await next()
    try {
      addMissing(c.res.headers)
    } catch {
      // A fetched Response has immutable headers; Hono's `c.res` setter answers with a copy.
      c.res = new Response(c.res.body, c.res)
      addMissing(c.res.headers)
    }
  })
}

function addMissing(headers: Headers) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!headers.has(name)) headers.set(name, value)
  }
}
