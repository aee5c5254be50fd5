/**
 * A small HTML tokenizer for the CMS sanitizer (./sanitize-html.ts), which Workers need because
 * they have no DOM and HTMLRewriter only streams responses. It follows the HTML tokenizer's rules
 * for tags, attributes, comments and raw text (https://html.spec.whatwg.org/multipage/parsing.html#tokenization)
 * and knows nothing of what is allowed: it only says where each tag starts and ends.
 *
 * - Text is handed over as written (character references not decoded); a '<' that opens no tag is
 *   text.
 * - Comments, doctypes, CDATA, processing instructions and bogus end tags yield nothing.
 * - The content of a raw-text element (script, style, textarea...) is one text token, never tags;
 *   after `<plaintext>` the rest of the input is text.
 * - A tag cut off by the end of the input is no tag at all, and ends the tokens (eof-in-tag).
 * - Attribute names are lower-cased and the first of a repeated name wins; values are raw.
 */

export type Attribute = { name: string; value: string }
export type HtmlToken =
  | { kind: 'text'; text: string }
  | { kind: 'start'; name: string; attributes: Attribute[] }
  | { kind: 'end'; name: string }

/** Elements whose content the browser reads as raw text up to the matching end tag. */
const RAW_TEXT = new Set([
  'script',
  'style',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'textarea',
  'title',
  'xmp',
])

type Tag = { kind: 'start' | 'end'; name: string; attributes: Attribute[]; end: number }

/** The tokens of `html`, in order. NUL characters are dropped first. */
export function* tokenizeHtml(html: string): Generator<HtmlToken> {
  const input = html.replace(/\u0000/g, '')
  let i = 0
  while (i < input.length) {
    const lt = input.indexOf('<', i)
    const textEnd = lt === -1 ? input.length : lt
    if (textEnd > i) {
      yield { kind: 'text', text: input.slice(i, textEnd) }
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
      yield { kind: 'text', text: '<' }
      i += 1
      continue
    }
    if (tag.end === -1) return
    i = tag.end
    if (tag.kind === 'end') {
      yield { kind: 'end', name: tag.name }
      continue
    }
    yield { kind: 'start', name: tag.name, attributes: tag.attributes }
    if (tag.name === 'plaintext') {
      if (i < input.length) yield { kind: 'text', text: input.slice(i) }
      return
    }
    if (RAW_TEXT.has(tag.name)) {
      const end = rawTextEnd(input, i, tag.name)
      if (end.textEnd > i) yield { kind: 'text', text: input.slice(i, end.textEnd) }
      if (end.tagEnd === -1) return
      yield { kind: 'end', name: tag.name }
      i = end.tagEnd
    }
  }
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
    if (!attributes.some((attribute) => attribute.name === lower))
      attributes.push({ name: lower, value })
  }
}

/** Skips a comment whose '<!--' ends before `from`; '<!-->' and '<!--->' are complete comments. */
function skipComment(input: string, from: number): number {
  if (input[from] === '>') return from + 1
  if (input.startsWith('->', from)) return from + 2
  const match = /--!?>/.exec(input.slice(from))
  return match ? from + match.index + match[0].length : input.length
}

/**
 * Where the raw text of `name` from `from` ends, and where its end tag ('</script' followed by a
 * space, '/' or '>') ends: -1 when the input ends before it.
 */
function rawTextEnd(
  input: string,
  from: number,
  name: string
): { textEnd: number; tagEnd: number } {
  const pattern = new RegExp(`</${name}(?=[\\s/>])`, 'ig')
  pattern.lastIndex = from
  const match = pattern.exec(input)
  if (!match) return { textEnd: input.length, tagEnd: -1 }
  const end = readTag(input, match.index)
  return { textEnd: match.index, tagEnd: end && end.end !== -1 ? end.end : -1 }
}

const NAMED_REFERENCES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  colon: ':',
  tab: '\t',
  newline: '\n',
  sol: '/',
  lpar: '(',
  rpar: ')',
  period: '.',
  comma: ',',
  num: '#',
  excl: '!',
  quest: '?',
  equals: '=',
  semi: ';',
  percnt: '%',
  commat: '@',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  laquo: '«',
  raquo: '»',
  copy: '©',
}

/**
 * `value` with its character references decoded: numeric ones, and the named ones that matter for
 * judging an address or writing a title (others are left as written).
 */
export function decodeCharacterReferences(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);?/gi, (reference, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X'
          ? parseInt(body.slice(2), 16)
          : parseInt(body.slice(1), 10)
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '\ufffd'
    }
    return NAMED_REFERENCES[body.toLowerCase()] ?? reference
  })
}
