/**
 * Speculation rules (issue 20; docs/decisions/0001-client-islands.md, "Instant navigations"): every
 * HTML response names the site's rule set in a `Speculation-Rules` header, and this middleware
 * serves that rule set at SPECULATION_RULES_PATH. The header keeps the strict CSP as it is (no
 * inline script, no hash to keep in step with the markup) and costs the page no bytes.
 *
 * The rules prerender a link to one of the site's pages, in any language, once the visitor shows
 * intent: with `moderate` eagerness Chromium starts on hover (200 ms) or pointer-down on a desktop,
 * and decides by the viewport on touch screens. Only the pages' own addresses without a query
 * match, so never the contact POST (a form, which rules never cover), `?sent=1`, `/api/*`,
 * `/_image`, files, or an address the site would answer with a redirect or a 404. Browsers
 * without the API ignore the header.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { PREFIXED_LANGUAGES } from '../../shared/languages'

export const SPECULATION_RULES_PATH = '/speculation-rules.json'
/** The rule set's media type (https://wicg.github.io/nav-speculation/speculation-rules.html). */
export const SPECULATION_RULES_TYPE = 'application/speculationrules+json'

/**
 * The rule set for pages at `pagePaths` (page keys such as '/' and '/about', unprefixed). Each
 * pattern names the pathname and an empty query; its origin is the rule set's, so only same-origin
 * links match.
 */
export function speculationRulesFor(pagePaths: readonly string[]) {
  const inner = pagePaths.filter((path) => path !== '/').map((path) => path.slice(1))
  const pages = `:page(${inner.join('|')})`
  const languages = `:lng(${PREFIXED_LANGUAGES.join('|')})`
  const pathnames = ['/', `/${pages}`, `/${languages}`, `/${languages}/${pages}`]
  return {
    prerender: [
      {
        source: 'document',
        where: {
          and: [
            { href_matches: pathnames.map((pathname) => ({ pathname, search: '' })) },
            { not: { selector_matches: '[download], [target=_blank], [rel~=nofollow]' } },
          ],
        },
        eagerness: 'moderate',
      },
    ],
  }
}

/**
 * Serves the rule set for `pages` at SPECULATION_RULES_PATH (cached by browsers for an hour; it
 * changes only with a deploy that changes the pages) and names it on every HTML response.
 */
export function speculationRules({ pages }: { pages: readonly string[] }): MiddlewareHandler {
  const body = JSON.stringify(speculationRulesFor(pages))
  const header = `"${SPECULATION_RULES_PATH}"`
  return async (c, next) => {
    if (c.req.path === SPECULATION_RULES_PATH && (c.req.method === 'GET' || c.req.method === 'HEAD')) {
      return c.body(body, 200, { 'Content-Type': SPECULATION_RULES_TYPE, 'Cache-Control': 'public, max-age=3600' })
    }
    await next()
    if (c.res.headers.get('Content-Type')?.startsWith('text/html')) setHeader(c, 'Speculation-Rules', header)
  }
}

/** Sets a header, on a copy when the response's headers are immutable (the Cache API's, a binding's). */
function setHeader(c: Context, name: string, value: string) {
  try {
    c.res.headers.set(name, value)
  } catch {
    c.res = new Response(c.res.body, c.res)
    c.res.headers.set(name, value)
  }
}
