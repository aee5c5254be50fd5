/** CMS HTML, sanitized on the server (src/content/sanitize-html.ts) and rendered as is. */
import { sanitizeHtml } from '../../content/sanitize-html'
import { switchLanguagePath, type Lng } from '../../shared/languages'

type RichTextProps = { html: string; lng: Lng; className?: string }

/** A block of sanitized CMS HTML; internal links in it keep the visitor's language. Nothing when empty. */
export function RichText({ html, lng, className = 'rich-text' }: RichTextProps) {
  const clean = sanitizeHtml(html, { internalHref: (href) => switchLanguagePath(href, lng) })
  if (!hasText(clean)) return null
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />
}

/** Whether CMS HTML has any visible text ('<p><br></p>' and '&nbsp;' do not count). */
export function hasText(html: string): boolean {
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;|\u00a0/g, ' ').trim() !== ''
}
