/**
 * CMS HTML, sanitized once when its payload was loaded (src/content/schemas.ts) and rendered as
 * is; a render only gives its internal links the visitor's language prefix.
 */
import { rewriteInternalLinks } from '../../content/sanitize-html'
import { switchLanguagePath, type Lng } from '../../shared/languages'

type RichTextProps = { html: string; lng: Lng; className?: string }

/** A block of sanitized CMS HTML; internal links in it keep the visitor's language. Nothing when empty. */
export function RichText({ html, lng, className = 'rich-text' }: RichTextProps) {
  if (!hasText(html)) return null
  return <div className={className} dangerouslySetInnerHTML={{ __html: localizeHtml(html, lng) }} />
}

/** Sanitized HTML with its internal links in `lng` ('/about' -> '/ru/about'). */
export function localizeHtml(html: string, lng: Lng): string {
  return rewriteInternalLinks(html, (href) => switchLanguagePath(href, lng))
}

/** Whether CMS HTML has any visible text ('<p><br></p>' and '&nbsp;' do not count). */
export function hasText(html: string): boolean {
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;|\u00a0/g, ' ').trim() !== ''
}
