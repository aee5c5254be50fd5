/**
 * CMS HTML, sanitized once when its payload was loaded (src/content/schemas.ts) and rendered as
 * is; a render only gives its internal links the visitor's language prefix.
 */
import { hasText } from '../../content/has-text'
import { rewriteInternalLinks } from '../../content/rewrite-internal-links'
import { switchLanguagePath, type Lng } from '../../shared/languages'

type RichTextProps = { html: string; lng: Lng; className?: string }

/** A block of sanitized CMS HTML; internal links in it keep the visitor's language. Nothing when empty. */
export function RichText({ html, lng, className = 'rich-text' }: RichTextProps) {
  if (!hasText(html)) return null
  return <div className={className} dangerouslySetInnerHTML={{ __html: localizeHtml(html, lng) }} />
}

/** Sanitized HTML with its internal links in `lng` ('/about' -> '/ru/about'). */
export function localizeHtml(html: string, lng: Lng): string {
  return remembered(localized[lng], html, () =>
    rewriteInternalLinks(html, (href) => switchLanguagePath(href, lng))
  )
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
}

/**
 * Sanitized CMS HTML as plain text for a meta description: tags become spaces, entities are
 * decoded, whitespace is collapsed, and a text longer than `maxLength` is cut at the last word
 * boundary before it, with an ellipsis.
 */
export function plainText(html: string, maxLength = 160): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1))
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ''
    })
    .replace(/\s+/g, ' ')
    .trim()
  if ([...text].length <= maxLength) return text
  const cut = [...text].slice(0, maxLength - 1).join('')
  const boundary = cut.lastIndexOf(' ')
  return `${(boundary > maxLength / 2 ? cut.slice(0, boundary) : cut).replace(/[\s,.;:·–—-]+$/u, '')}…`
}

/**
 * Results of localizeHtml by input, per isolate: every render of a page passes
 * the same stored HTML again (src/freshness/payload-cache.ts). Bounded: a full memo starts over.
 */
const MAX_REMEMBERED = 500
const localized: Record<Lng, Map<string, string>> = { hy: new Map(), en: new Map(), ru: new Map() }

function remembered<T>(memo: Map<string, T>, html: string, compute: () => T): T {
  const known = memo.get(html)
  if (known !== undefined) return known
  const result = compute()
  if (memo.size >= MAX_REMEMBERED) memo.clear()
  memo.set(html, result)
  return result
}
