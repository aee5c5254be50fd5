/**
 * Which addresses a preview link may lead to and exit may return to: the site's pages, spelled as
 * the site spells them (canonical, percent-encoded, no query), and for a link the content report's
 * page. Nothing else, so neither a link nor exit can redirect anywhere else.
 */
import { canonicalPath } from '../middleware/language'
import { isPagePath } from '../routes/pages'
import { splitLanguagePrefix } from '../shared/languages'
import { PREVIEW_REPORT_PATH } from '../shared/site-paths'

/** Whether `path` is a page's public address: '/', '/en/about', '/ru/enterprises/<slug>'. */
export function isPublicPagePath(path: string): boolean {
  if (!path.startsWith('/') || canonicalPath(path) !== path) return false
  let parsed: URL
  try {
    parsed = new URL(path, 'https://site.invalid')
  } catch {
    return false
  }
  if (parsed.host !== 'site.invalid' || parsed.pathname !== path) return false
  return isPagePath(splitLanguagePrefix(path).path)
}

/** Whether a preview link may name `path`: a page's public address or the report's page. */
export function isPreviewTarget(path: string): boolean {
  return path === PREVIEW_REPORT_PATH || isPublicPagePath(path)
}
