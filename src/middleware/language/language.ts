/**
 * Reads the page language from the path prefix (and only from it) into `c.var.lng`, and the path
 * without the prefix into `c.var.pageKey`. Also sends the canonical redirects, in one hop:
 * - percent-encoded unreserved characters are decoded (RFC 3986 section 6.2.2.2): /%61bout ->
 *   /about, so that a spelling of a page's address is never a page of its own. Hono's router decodes
 *   the path before matching, so without this /%61bout would render /about under a page key (and
 *   page-cache key, and backend `page` value) of its own, at will; any other spelling matches no
 *   route and is a 404;
 * - repeated slashes become one: /en//about -> /en/about (so that no redirect can start with `//`,
 *   which a browser reads as another host: /hy//evil.example must not lead there);
 * - a trailing slash is dropped: /en/about/ -> /en/about;
 * - Armenian has no prefix: /hy/about -> /about;
 * - an unsupported language segment goes home: /fr/about -> / (spec section 2).
 */
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../../env'
import { isLng, splitLanguagePrefix } from '../../shared/languages'
import { PAGE_SEGMENTS } from '../../shared/site-paths'

/** Looks like a language tag (fr, de-AT, pt_BR) rather than a page. */
const LANGUAGE_TAG = /^[a-z]{2}(?:[-_][a-z0-9]{2,4})?$/i

export function language() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const url = new URL(c.req.url)
    const { pathname, search } = url

    const canonical = canonicalPath(pathname)
    if (canonical !== pathname) return c.redirect(`${canonical}${search}`, 301)

    const first = pathname.split('/')[1] ?? ''
    if (first && !isLng(first) && !PAGE_SEGMENTS.has(first) && LANGUAGE_TAG.test(first)) {
      return c.redirect('/', 302)
    }

    const { lng, path } = splitLanguagePrefix(pathname)
    c.set('lng', lng)
    c.set('pageKey', path)
    await next()
  })
}

/**
 * The path with unreserved characters decoded, single slashes, no trailing slash and no /hy
 * prefix; always starts with one '/'. Dot segments, encoded or not, are already resolved by the
 * URL parser before a request reaches the worker.
 */
export function canonicalPath(pathname: string): string {
  const path = decodeUnreserved(pathname)
    .replace(/\/{2,}/g, '/')
    .replace(/(.)\/$/, '$1')
  return path === '/hy' || path.startsWith('/hy/') ? path.slice(3) || '/' : path
}

/** Decodes %XX escapes of unreserved characters (letters, digits, '-', '.', '_', '~'), in any case. */
function decodeUnreserved(pathname: string): string {
  return pathname.replace(/%([0-9a-f]{2})/gi, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16))
    return /[A-Za-z0-9\-._~]/.test(char) ? char : escape
  })
}
