/**
 * Server-side sanitizer for the CMS's HTML descriptions. Workers have no DOM and HTMLRewriter only
 * streams responses, so this is a small tokenizer that follows the HTML tokenizer's rules for tags,
 * attributes and comments (https://html.spec.whatwg.org/multipage/parsing.html#tokenization) and
 * re-serializes only what the allow-list names:
 *
 * - paragraphs, emphasis, lists, line breaks, quotes and links; headings and divs become paragraphs;
 * - no attribute survives except a link's `href` (http, https, mailto, tel or a relative address)
 *   and `title`; external links get `target="_blank" rel="noopener noreferrer"`;
 * - every text is escaped, the output is always balanced, and the content of script, style,
 *   iframe, svg and the like is dropped together with the element.
 *
 * Safety does not rest on parsing exactly as a browser would: whatever the input, the output holds
 * only tags this module writes, with attribute values it has checked and escaped. Sanitizing the
 * output again gives the same output, so it runs once, when a payload is loaded (schemas.ts), and
 * renders only adjust the language prefix of internal links with `rewriteInternalLinks`.
 */

/** Elements kept as they are. */
const ALLOWED = new Set(['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'small', 'mark', 'sub', 'sup', 'span', 'ul', 'ol', 'li', 'a', 'blockquote'])
/** Elements rewritten to another allowed element. */
const RENAMED: Record<string, string> = { div: 'p', h1: 'p', h2: 'p', h3: 'p', h4: 'p', h5: 'p', h6: 'p', section: 'p', article: 'p' }
/** Elements dropped with everything inside them. */
const DROPPED = new Set([
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'template', 'noscript',
  'noembed', 'noframes', 'textarea', 'title', 'xmp', 'svg', 'math', 'select', 'option', 'button', 'form',
  'audio', 'video', 'canvas', 'head', 'plaintext', 'dialog',
])
/** Elements whose content the browser reads as raw text up to the matching end tag. */
const RAW_TEXT = new Set(['script', 'style', 'iframe', 'noembed', 'noframes', 'noscript', 'textarea', 'title', 'xmp'])
const VOID = new Set(['br', 'area', 'base', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr'])
const BLOCK = new Set(['p', 'ul', 'ol', 'blockquote'])

const NAMED_REFERENCES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', colon: ':', tab: '\t', newline: '\n',
  sol: '/', lpar: '(', rpar: ')', period: '.', comma: ',', num: '#', excl: '!', quest: '?', equals: '=',
  semi: ';', percnt: '%', commat: '@', hellip: '…', mdash: '—', ndash: '–', laquo: '«', raquo: '»', copy: '©',
}

/** Options of {@link sanitizeHtml}. */
export type SanitizeOptions = {
  /** Rewrites a link's internal address (one starting with '/'), e.g. to add the language prefix. */
  internalHref?: (href: string) => string
}

type Attribute = { name: string; value: string }
type Tag = { kind: 'start' | 'end'; name: string; attributes: Attribute[]; end: number }

/** The allow-listed, balanced, escaped form of `html`. */
export function sanitizeHtml(html: string, options: SanitizeOptions = {}): string {
  const input = html.replace(/\u0000/g, '')
  const out: string[] = []
  const open: string[] = []
  /** Depth inside dropped elements; nothing is written while it is above zero. */
  let dropped: string[] = []
  let i = 0

  const close = (name: string) => {
    const at = open.lastIndexOf(name)
    if (at === -1) return
    while (open.length > at) out.push(`</${open.pop()}>`)
  }

  while (i < input.length) {
    const lt = input.indexOf('<', i)
    const textEnd = lt === -1 ? input.length : lt
    if (textEnd > i) {
      if (dropped.length === 0) out.push(escapeText(input.slice(i, textEnd)))
      i = textEnd
      continue
    }
    // input[i] === '<'
    const next = input[i + 1] ?? ''
    if (input.startsWith('<!--', i)) {
      i = skipComment(input, i + 4)
      continue
    }
    if (next === '!' || next === '?' || (next === '/' && !/[a-z>]/i.test(input[i + 2] ?? ''))) {
      // Doctype, CDATA, processing instruction or bogus end tag: a bogus comment up to '>'.
      const gt = input.indexOf('>', i + 2)
      i = gt === -1 ? input.length : gt + 1
      continue
    }
    if (next === '/' && input[i + 2] === '>') {
      i += 3
      continue
    }
    const tag = /[a-z]/i.test(next) || next === '/' ? readTag(input, i) : null
    if (!tag) {
      if (dropped.length === 0) out.push('&lt;')
      i += 1
      continue
    }
    // A tag cut off by the end of the input is no tag at all (the tokenizer's eof-in-tag).
    if (tag.end === -1) break
    i = tag.end
    const { name } = tag

    if (tag.kind === 'start' && DROPPED.has(name)) {
      if (name === 'plaintext') break
      if (RAW_TEXT.has(name)) {
        i = skipRawText(input, i, name)
      } else if (!VOID.has(name)) {
        dropped.push(name)
      }
      continue
    }
    if (dropped.length > 0) {
      if (tag.kind === 'end') {
        const at = dropped.lastIndexOf(name)
        if (at !== -1) dropped = dropped.slice(0, at)
      } else if (DROPPED.has(name) && !VOID.has(name)) {
        dropped.push(name)
      }
      continue
    }

    const element = RENAMED[name] ?? name
    if (!ALLOWED.has(element)) continue
    if (tag.kind === 'end') {
      if (element === 'br') out.push('<br>')
      else close(element)
      continue
    }
    // The implied end tags a browser would add, so the output nests as it reads.
    if (BLOCK.has(element) && open.includes('p')) close('p')
    if (element === 'li') closeListItem(open, close)
    if (element === 'a') close('a')
    if (element === 'br') {
      out.push('<br>')
      continue
    }
    if (element === 'a') {
      // A link without a safe address keeps its text and loses the element.
      const link = openLink(tag.attributes, options)
      if (!link) continue
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
  const title = decodeReferences(first('title') ?? '').trim()
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
  const href = decodeReferences(raw).replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
  if (href === '' || /[\u0000-\u001f\u007f]/.test(href)) return null
  const normalized = href.replace(/\\/g, '/')
  if (normalized.startsWith('//')) return `https:${normalized}`
  const scheme = /^([^/?#]*?):/.exec(normalized)
  if (!scheme) return /&/.test(normalized.split(/[/?#]/)[0] ?? '') ? null : withSingleSlashes(normalized)
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

function unescapeAttribute(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
}

/** Reads the tag starting at `input[start] === '<'`; `end` is -1 when the input ends inside it. */
function readTag(input: string, start: number): Tag | null {
  let i = start + 1
  const kind = input[i] === '/' ? 'end' : 'start'
  if (kind === 'end') i += 1
  const nameMatch = /^[a-z][^\s/>]*/i.exec(input.slice(i, i + 64))
  if (!nameMatch) return null
  let name = nameMatch[0]
  i += name.length
  // A longer name than the slice above: read the rest of it.
  while (i < input.length && !/[\s/>]/.test(input[i]!)) name += input[i++]
  const attributes: Attribute[] = []
  for (;;) {
    while (i < input.length && /[\s/]/.test(input[i]!)) i += 1
    if (i >= input.length) return { kind, name: name.toLowerCase(), attributes, end: -1 }
    if (input[i] === '>') return { kind, name: name.toLowerCase(), attributes, end: i + 1 }
    let attrName = input[i++]!
    while (i < input.length && !/[\s/>=]/.test(input[i]!)) attrName += input[i++]
    while (i < input.length && /\s/.test(input[i]!)) i += 1
    let value = ''
    if (input[i] === '=') {
      i += 1
      while (i < input.length && /\s/.test(input[i]!)) i += 1
      const quote = input[i]
      if (quote === '"' || quote === "'") {
        const closing = input.indexOf(quote, i + 1)
        if (closing === -1) return { kind, name: name.toLowerCase(), attributes, end: -1 }
        value = input.slice(i + 1, closing)
        i = closing + 1
      } else {
        const start = i
        while (i < input.length && !/[\s>]/.test(input[i]!)) i += 1
        value = input.slice(start, i)
      }
    }
    const lower = attrName.toLowerCase()
    if (!attributes.some((attribute) => attribute.name === lower)) attributes.push({ name: lower, value })
  }
}

/** Skips a comment whose '<!--' ends before `from`; '<!-->' and '<!--->' are complete comments. */
function skipComment(input: string, from: number): number {
  if (input[from] === '>') return from + 1
  if (input.startsWith('->', from)) return from + 2
  const match = /--!?>/.exec(input.slice(from))
  return match ? from + match.index + match[0].length : input.length
}

/** Skips the raw text of `name` and its end tag ('</script' followed by a space, '/' or '>'). */
function skipRawText(input: string, from: number, name: string): number {
  const pattern = new RegExp(`</${name}(?=[\\s/>])`, 'ig')
  pattern.lastIndex = from
  const match = pattern.exec(input)
  if (!match) return input.length
  const end = readTag(input, match.index)
  return end && end.end !== -1 ? end.end : input.length
}

function decodeReferences(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);?/gi, (reference, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd'
    }
    return NAMED_REFERENCES[body.toLowerCase()] ?? reference
  })
}

/** Text: character references pass through (they decode to text), everything else is escaped. */
function escapeText(text: string): string {
  return text
    .replace(/&(?!(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
