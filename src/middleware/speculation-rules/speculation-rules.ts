/**
 * Speculation rules (docs/decisions/0001-client-islands.md, "Instant navigations"): every
 * HTML response names the site's rule set in a `Speculation-Rules` header, and this middleware
 * serves that rule set at SPECULATION_RULES_PATH. The header keeps the strict CSP as it is (no
 * inline script, no hash to keep in step with the markup) and costs the page no bytes.
 *
 * The rules prerender a link to one of the site's pages, in any language, at the first sign of
 * intent: with `eager` eagerness Chromium starts on a hover of some 10 ms on a desktop, and on a
 * touch screen once the link has stayed in view a short while, as the platform decides. A
 * visitor who points and clicks (a 200 ms hover) then gets a page that has loaded by the click;
 * with `moderate`, which waits for a 200 ms hover, the prerender only started at the click, and the
 * page still loaded after it (bench, 2026-11-25: 190 ms from click to paint against 78). The cost
 * stays small: Chromium keeps at most two such prerenders, dropping the oldest; a prerender's
 * page and images come from the caches; and a prerender never shown runs no island and sends no
 * beacon (client/when-idle.ts). Only the pages' own addresses without a query match, so never the
 * contact POST (a form, which rules never cover), `?sent=1`, `/api/*`, `/_image`, files, or an
 * address the site would answer with a redirect or a 404. Browsers without the API ignore the
 * header.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { PREFIXED_LANGUAGES } from '../../shared/languages'

export const SPECULATION_RULES_PATH = '/speculation-rules.json'
/** The rule set's media type (https://wicg.github.io/nav-speculation/speculation-rules.html). */
export const SPECULATION_RULES_TYPE = 'application/speculationrules+json'

/**
 * The rule set for pages at `pagePaths` (page keys such as '/' and '/about', unprefixed) and at
 * `pagePatterns` (URL patterns of page keys, such as '/enterprises/:project': a project's page,
 * one path segment, which only the site's own links name). Each pattern names the pathname and an
 * empty query; its origin is the rule set's, so only same-origin links match.
 */
export function speculationRulesFor(
  pagePaths: readonly string[],
  pagePatterns: readonly string[] = []
) {
  const inner = pagePaths.filter((path) => path !== '/').map((path) => path.slice(1))
  const pages = `:page(${inner.join('|')})`
  const languages = `:lng(${PREFIXED_LANGUAGES.join('|')})`
  const pathnames = [
    '/',
    `/${pages}`,
    `/${languages}`,
    `/${languages}/${pages}`,
    ...pagePatterns.flatMap((pattern) => [pattern, `/${languages}${pattern}`]),
  ]
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
        eagerness: 'eager',
      },
    ],
  }
}

/**
 * Serves the rule set for `pages` at SPECULATION_RULES_PATH (cached by browsers for an hour; it
 * changes only with a deploy that changes the pages) and names it on every HTML response.
 */
export function speculationRules({
  pages,
  patterns = [],
}: {
  pages: readonly string[]
  patterns?: readonly string[]
}): MiddlewareHandler {
  const body = JSON.stringify(speculationRulesFor(pages, patterns))
  const header = `"${SPECULATION_RULES_PATH}"`
  return async (c, next) => {
    if (
      c.req.path === SPECULATION_RULES_PATH &&
      (c.req.method === 'GET' || c.req.method === 'HEAD')
    ) {
      return c.body(body, 200, {
        'Content-Type': SPECULATION_RULES_TYPE,
        'Cache-Control': 'public, max-age=3600',
      })
    }
    await next()
    if (c.res.headers.get('Content-Type')?.startsWith('text/html'))
      setHeader(c, 'Speculation-Rules', header)
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
