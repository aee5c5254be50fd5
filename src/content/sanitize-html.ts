/**
 * Server-side sanitizer for the CMS's HTML descriptions: the allow-list policy over the tokens of
 * ./html-tokenizer.ts, re-serializing only what the allow-list names:
 *
 * - paragraphs, emphasis, lists, line breaks, quotes and links; headings and divs become paragraphs;
 * - no attribute survives except a link's `href` (http, https, mailto, tel or a relative address)
 *   and `title`; external links get `target="_blank" rel="noopener noreferrer"`;
 * - every text is escaped, the output is always balanced, and the content of script, style,
 *   iframe, svg and the like is dropped together with the element.
 *
 * Safety does not rest on parsing exactly as a browser would: whatever the input, the output holds
 * only tags this module writes, with attribute values it has checked and escaped (the tests judge
 * the output with parse5, a browser's parser). Sanitizing the output again gives the same output,
 * so it runs once, when a payload is loaded (schemas.ts), and renders only adjust the language
 * prefix of internal links (./rewrite-internal-links.ts).
 */
import { escapeAttribute, escapeText } from './html-escape'
import { decodeCharacterReferences, tokenizeHtml, type Attribute } from './html-tokenizer'

/** Elements kept as they are. */
const ALLOWED = new Set([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'small',
  'mark',
  'sub',
  'sup',
  'span',
  'ul',
  'ol',
  'li',
  'a',
  'blockquote',
])
/** Elements rewritten to another allowed element. */
const RENAMED: Record<string, string> = {
  div: 'p',
  h1: 'p',
  h2: 'p',
  h3: 'p',
  h4: 'p',
  h5: 'p',
  h6: 'p',
  section: 'p',
  article: 'p',
}
/** Elements dropped with everything inside them. */
const DROPPED = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'template',
  'noscript',
  'noembed',
  'noframes',
  'textarea',
  'title',
  'xmp',
  'svg',
  'math',
  'select',
  'option',
  'button',
  'form',
  'audio',
  'video',
  'canvas',
  'head',
  'plaintext',
  'dialog',
])
const VOID = new Set([
  'br',
  'area',
  'base',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
])
const BLOCK = new Set(['p', 'ul', 'ol', 'blockquote'])

/** Options of {@link sanitizeHtml}. */
export type SanitizeOptions = {
  /** Rewrites a link's internal address (one starting with '/'), e.g. to add the language prefix. */
  internalHref?: (href: string) => string
  /** Told what was removed, briefly (`<script> with its content`, `onclick on <p>`): the content report. */
  onRemoved?: (what: string) => void
}

/** Attributes the sanitizer writes itself on a link, so an editor's are not "removed" but replaced. */
const LINK_ATTRIBUTES = new Set(['href', 'title', 'target', 'rel'])

/** The allow-listed, balanced, escaped form of `html`. */
export function sanitizeHtml(html: string, options: SanitizeOptions = {}): string {
  const out: string[] = []
  const open: string[] = []
  /** The dropped elements the tokens are inside; nothing is written while there is one. */
  let dropped: string[] = []
  const removed = options.onRemoved ?? (() => {})

  const close = (name: string) => {
    const at = open.lastIndexOf(name)
    if (at === -1) return
    while (open.length > at) out.push(`</${open.pop()}>`)
  }

  for (const token of tokenizeHtml(html)) {
    if (token.kind === 'text') {
      if (dropped.length === 0) out.push(escapeText(token.text))
      continue
    }
    const { name } = token
    if (dropped.length > 0 || (token.kind === 'start' && DROPPED.has(name))) {
      if (token.kind === 'end') {
        const at = dropped.lastIndexOf(name)
        if (at !== -1) dropped = dropped.slice(0, at)
      } else if (DROPPED.has(name) && !VOID.has(name)) {
        if (dropped.length === 0) removed(`<${name}> with its content`)
        dropped.push(name)
      } else if (dropped.length === 0) {
        removed(`<${name}>`)
      }
      continue
    }

    const element = RENAMED[name] ?? name
    if (!ALLOWED.has(element)) {
      if (token.kind === 'start') removed(`<${name}>`)
      continue
    }
    if (token.kind === 'end') {
      if (element === 'br') out.push('<br>')
      else close(element)
      continue
    }
    // The implied end tags a browser would add, so the output nests as it reads.
    if (BLOCK.has(element) && open.includes('p')) close('p')
    if (element === 'li') closeListItem(open, close)
    if (element === 'a') close('a')
    for (const { name: attribute } of token.attributes) {
      if (element !== 'a' || !LINK_ATTRIBUTES.has(attribute)) removed(`${attribute} on <${name}>`)
    }
    if (element === 'br') {
      out.push('<br>')
      continue
    }
    if (element === 'a') {
      // A link without a safe address keeps its text and loses the element.
      const link = openLink(token.attributes, options)
      if (!link) {
        removed('a link without a safe address (its text stays)')
        continue
      }
      out.push(link)
    } else {
      out.push(`<${element}>`)
    }
    open.push(element)
  }
  while (open.length > 0) out.push(`</${open.pop()}>`)
  return out.join('')
}

/** An <li> closes the previous item of the same list. */
function closeListItem(open: string[], close: (name: string) => void) {
  const li = open.lastIndexOf('li')
  const list = Math.max(open.lastIndexOf('ul'), open.lastIndexOf('ol'))
  if (li > list) close('li')
}

function openLink(attributes: Attribute[], options: SanitizeOptions): string | null {
  const first = (name: string) => attributes.find((attribute) => attribute.name === name)?.value
  const href = safeHref(first('href') ?? '')
  if (!href) return null
  const internal = href.startsWith('/') && options.internalHref ? options.internalHref(href) : href
  let html = `<a href="${escapeAttribute(internal)}"`
  if (/^https?:/i.test(href)) html += ' target="_blank" rel="noopener noreferrer"'
  const title = decodeCharacterReferences(first('title') ?? '').trim()
  if (title) html += ` title="${escapeAttribute(title)}"`
  return `${html}>`
}

/**
 * The link address when it is safe: http(s), mailto, tel, or relative. Character references are
 * decoded and the characters browsers ignore in URLs removed before the scheme is judged, so
 * `jav&#x09;ascript:` and `javascript&colon;` are recognised for what they are.
 */
export function safeHref(raw: string): string | null {
  // Browsers strip leading and trailing C0 controls and spaces, and drop tabs and newlines anywhere.
  const href = decodeCharacterReferences(raw)
    .replace(/[\t\n\r]/g, '')
    .replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
  if (href === '' || /[\u0000-\u001f\u007f]/.test(href)) return null
  const normalized = href.replace(/\\/g, '/')
  if (normalized.startsWith('//')) return `https:${normalized}`
  const scheme = /^([^/?#]*?):/.exec(normalized)
  if (!scheme)
    return /&/.test(normalized.split(/[/?#]/)[0] ?? '') ? null : withSingleSlashes(normalized)
  return /^(https?|mailto|tel)$/i.test(scheme[1] ?? '') ? normalized : null
}

/**
 * A relative address with repeated slashes of its path collapsed ('/en//evil.example' ->
 * '/en/evil.example'), so that removing or replacing its first segment can never leave '//'.
 */
function withSingleSlashes(relative: string): string {
  const cut = relative.search(/[?#]/)
  const path = cut === -1 ? relative : relative.slice(0, cut)
  return path.replace(/\/{2,}/g, '/') + (cut === -1 ? '' : relative.slice(cut))
}
