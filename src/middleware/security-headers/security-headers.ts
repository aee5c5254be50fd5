/**
 * The security headers of every response the worker sends: pages, redirects, error pages, 304s
 * and the POST routes, set by Hono's own `secureHeaders` middleware
 * (https://hono.dev/docs/middleware/builtin/secure-headers). Static files get the same list from
 * public/_headers; tests/worker/security-headers.test.ts writes the policy out and checks both.
 *
 * The policy allows no inline script: islands' props sit in <script type="application/json">,
 * which is data, not script (https://www.w3.org/TR/CSP3/#should-block-inline). Inline styles stay
 * allowed: every page inlines the site stylesheet (src/views/assets.tsx), the last-resort 500 page
 * carries its own <style>, and an inline style cannot run code. Images come only from this origin:
 * CMS photos, wherever they live, reach the browser through the site's own /_image route.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { secureHeaders } from 'hono/secure-headers'
import { lazy } from '../../shared/lazy'

const POLICY = {
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    // /_image serves every picture from this origin; data: for small inline placeholders.
    imgSrc: ["'self'", 'data:'],
    // Swiper's stylesheet embeds its icon font as a data: URL.
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  // Two years, the minimum for the preload list; `preload` itself is a per-domain decision.
  strictTransportSecurity: 'max-age=63072000; includeSubDomains',
  xContentTypeOptions: true,
  // For browsers that predate CSP's frame-ancestors.
  xFrameOptions: 'DENY',
  referrerPolicy: 'strict-origin-when-cross-origin',
  // Only features Chromium knows: an unknown one is logged as a console error on every page.
  permissionsPolicy: {
    accelerometer: [],
    camera: [],
    geolocation: [],
    gyroscope: [],
    magnetometer: [],
    microphone: [],
    payment: [],
    usb: [],
  },
  crossOriginOpenerPolicy: true,
  // Hono's other defaults are left off, so the list stays the one public/_headers repeats:
  // X-XSS-Protection, X-Download-Options and X-Permitted-Cross-Domain-Policies concern Internet
  // Explorer and Flash; X-DNS-Prefetch-Control would only slow the pages' own links;
  // Cross-Origin-Resource-Policy and Origin-Agent-Cluster are not part of this site's policy.
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  // A header a route set itself (none does today) is the route's to decide.
  overwrite: false,
} satisfies Parameters<typeof secureHeaders>[0]

/**
 * Adds the site's security headers to every response, through `hono/secure-headers`. The
 * middleware (which writes the policy out) is built on the first request, not when the app is
 * defined (decision 0033).
 */
export function securityHeaders(): MiddlewareHandler {
  const addHeaders = lazy(() => secureHeaders(POLICY))
  return (c, next) =>
    addHeaders()(c, async () => {
      await next()
      makeHeadersWritable(c)
    })
}

/**
 * A Response passed on from fetch(), a service binding or the Cache API has immutable headers,
 * which `secureHeaders` could not set: answer with a copy instead (Hono's `c.res` setter copies).
 * Deleting X-Powered-By, which `secureHeaders` removes anyway, throws on exactly those.
 */
function makeHeadersWritable(c: Context) {
  try {
    c.res.headers.delete('X-Powered-By')
  } catch {
    c.res = new Response(c.res.body, c.res)
  }
}
