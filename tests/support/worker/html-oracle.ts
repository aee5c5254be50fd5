/**
 * An independent judge of the CMS HTML sanitizer's output (src/content/sanitize-html.ts): parse5,
 * a spec-compliant HTML parser (the WHATWG tree construction a browser runs), reads the output as
 * a page does, inside the `<div>` RichText writes it into, and the tree it builds is checked, not
 * the text. Links are judged by the WHATWG URL parser, as the browser resolves them.
 */
import { parse, type DefaultTreeAdapterTypes } from 'parse5'

type Node = DefaultTreeAdapterTypes.Node
type Element = DefaultTreeAdapterTypes.Element

/** The elements the sanitizer may write (its allow-list, headings and divs already renamed). */
export const ALLOWED_ELEMENTS = new Set([
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
/** Attributes of a link; no other element keeps any. */
const LINK_ATTRIBUTES = new Set(['href', 'target', 'rel', 'title'])
const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:'])
const PAGE = 'https://site.example/en/about'
const OTHER_PAGE = 'https://other.example/ru/x/y'

/** Every problem the parsed tree of `html`, written into a page's `<div>`, shows; [] when none. */
export function oracleProblems(html: string): string[] {
  const problems: string[] = []
  const document = parse(
    `<!DOCTYPE html><html><head></head><body><div id="rich-text">${html}</div><footer></footer></body></html>`
  )
  const body = find(document, (node) => isElement(node) && node.tagName === 'body')!
  const bodyChildren = (body as Element).childNodes
    .filter(isElement)
    .map((element) => element.tagName)
  // Nothing the sanitizer wrote may close the container or open an element after it.
  if (bodyChildren.join(',') !== 'div,footer')
    problems.push(`the container did not hold the HTML: body has ${bodyChildren.join(',')}`)
  const container = (body as Element).childNodes.find(isElement)!
  const footer = find(body, (node) => isElement(node) && node.tagName === 'footer') as
    Element | undefined
  if (footer && footer.childNodes.length > 0)
    problems.push('content ended up in the element after the container')
  walk(container, (node) => {
    if (node === container) return
    if (node.nodeName === '#text') return
    if (node.nodeName === '#comment') return problems.push('a comment')
    if (!isElement(node)) return problems.push(`a ${node.nodeName} node`)
    if (node.namespaceURI !== 'http://www.w3.org/1999/xhtml')
      problems.push(`<${node.tagName}> in ${node.namespaceURI}`)
    if (!ALLOWED_ELEMENTS.has(node.tagName)) problems.push(`element <${node.tagName}>`)
    for (const { name } of node.attrs) {
      if (node.tagName !== 'a' || !LINK_ATTRIBUTES.has(name))
        problems.push(`attribute ${name} on <${node.tagName}>`)
    }
    if (node.tagName === 'a') problems.push(...linkProblems(node))
  })
  return problems
}

/** A link: an address a browser resolves to http(s), mailto or tel, or to this site; external ones in a new tab without an opener. */
function linkProblems(link: Element): string[] {
  const attribute = (name: string) => link.attrs.find((attr) => attr.name === name)?.value
  const href = attribute('href')
  if (href === undefined) return ['a link without href']
  let resolved: URL
  try {
    resolved = new URL(href, PAGE)
  } catch {
    return [`an href the URL parser refuses: ${JSON.stringify(href)}`]
  }
  const problems: string[] = []
  if (!SAFE_SCHEMES.has(resolved.protocol))
    problems.push(`an href with scheme ${resolved.protocol}: ${JSON.stringify(href)}`)
  // Relative when the page it is on changes where it leads: then it must stay on that page's site.
  const relative = new URL(href, OTHER_PAGE).href !== resolved.href
  if (relative && resolved.origin !== new URL(PAGE).origin)
    problems.push(`a relative href that leaves the site: ${JSON.stringify(href)}`)
  const external = !relative && (resolved.protocol === 'http:' || resolved.protocol === 'https:')
  const newTab = attribute('target') === '_blank' && attribute('rel') === 'noopener noreferrer'
  if (external !== newTab)
    problems.push(
      `target/rel ${attribute('target')}/${attribute('rel')} on ${external ? 'an external' : 'an internal'} link ${JSON.stringify(href)}`
    )
  if (!newTab && (attribute('target') !== undefined || attribute('rel') !== undefined))
    problems.push('a target or rel of its own')
  return problems
}

/** The text a visitor reads in `html` (the parsed tree's text, character references decoded). */
export function parsedText(html: string): string {
  const fragment = parse(`<!DOCTYPE html><body><div>${html}</div>`)
  let text = ''
  walk(fragment, (node) => {
    if (node.nodeName === '#text') text += (node as DefaultTreeAdapterTypes.TextNode).value
  })
  return text
}

function isElement(node: Node): node is Element {
  return 'tagName' in node
}

function walk(node: Node, visit: (node: Node) => unknown) {
  visit(node)
  for (const child of 'childNodes' in node ? node.childNodes : []) walk(child, visit)
}

function find(node: Node, test: (node: Node) => boolean): Node | undefined {
  if (test(node)) return node
  for (const child of 'childNodes' in node ? node.childNodes : []) {
    const found = find(child, test)
    if (found) return found
  }
  return undefined
}
