/**
 * The render-time half of CMS HTML (docs/decisions/0006-hostile-input.md): one payload serves three
 * languages, so each render gives the internal links of HTML sanitized at load the page's language
 * prefix, with one regular-expression pass instead of tokenizing again.
 */
import { escapeAttribute, unescapeAttribute } from './html-escape'

/**
 * Rewrites the internal links of sanitized HTML (`sanitizeHtml`'s output, whose every '<a href="'
 * is one it wrote: text and attribute values have '<' and '"' escaped), e.g. to give them the
 * page's language prefix. A rewritten address that is no longer internal is dropped with its link
 * element kept as text, so no rewrite can lead off the site.
 */
export function rewriteInternalLinks(html: string, rewrite: (href: string) => string): string {
  return html.replace(/<a href="(\/[^"]*)"/g, (_anchor, escaped: string) => {
    const href = rewrite(unescapeAttribute(escaped)).replace(/[\t\n\r]/g, '')
    return /^\/(?![/\\])/.test(href) ? `<a href="${escapeAttribute(href)}"` : '<a'
  })
}
