/**
 * Reads the page language from the path prefix (and only from it) into `c.var.lng`, and the path
 * without the prefix into `c.var.pageKey`. Also sends the canonical redirects:
 * - a trailing slash is dropped: /en/about/ -> /en/about;
 * - Armenian has no prefix: /hy/about -> /about;
 * - an unsupported language segment goes home: /fr/about -> / (spec section 2).
 */
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../../env'
import { isLng, splitLanguagePrefix } from '../../shared/languages'

/** Path segments that are pages, never language codes. */
const PAGE_SEGMENTS = new Set(['about', 'enterprises', 'contact-us', 'services', 'enterprise-detail'])

/** Looks like a language tag (fr, de-AT, pt_BR) rather than a page. */
const LANGUAGE_TAG = /^[a-z]{2}(?:[-_][a-z0-9]{2,4})?$/i

export function language() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const url = new URL(c.req.url)
    const { pathname, search } = url

    if (pathname.length > 1 && pathname.endsWith('/')) {
      return c.redirect(`${pathname.replace(/\/+$/, '') || '/'}${search}`, 301)
    }

    const first = pathname.split('/')[1] ?? ''
    if (first === 'hy') {
      return c.redirect(`${pathname.slice(3) || '/'}${search}`, 301)
    }
    if (first && !isLng(first) && !PAGE_SEGMENTS.has(first) && LANGUAGE_TAG.test(first)) {
      return c.redirect('/', 302)
    }

    const { lng, path } = splitLanguagePrefix(pathname)
    c.set('lng', lng)
    c.set('pageKey', path)
    await next()
  })
}
