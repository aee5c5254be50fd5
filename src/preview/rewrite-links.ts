/**
 * Keeps an editor inside preview: in a preview answer, every same-origin link to one of the site's
 * pages leads to that page's preview instead ('/en/about' -> '/_preview/en/about'): the navbar,
 * cards, footer, the language dropdown (its links, and the `href`s of the props it hydrates with)
 * and a redirect's Location. Other links (images, files, other sites, the preview's own) are left
 * as they are. HTMLRewriter streams the page, so nothing waits for the whole document.
 */
import { previewPathOf } from '../shared/site-paths'
import { serializeProps } from '../views/island'
import { isPublicPagePath } from './targets'

/** `href` (as written in the page) with its path moved under the preview, when it names a page. */
export function previewHref(href: string, origin: string): string {
  if (!href.startsWith('/') || href.startsWith('//')) return href
  let url: URL
  try {
    url = new URL(href, origin)
  } catch {
    return href
  }
  if (url.origin !== origin || !isPublicPagePath(url.pathname)) return href
  return `${previewPathOf(url.pathname)}${url.search}${url.hash}`
}

/** An island's props with every `href` moved under the preview. */
function previewProps(value: unknown, origin: string): unknown {
  if (Array.isArray(value)) return value.map((item) => previewProps(item, origin))
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key === 'href' && typeof child === 'string'
        ? previewHref(child, origin)
        : previewProps(child, origin),
    ])
  )
}

/** The HTML `response` with its page links leading to previews, and marked noindex. */
export function rewriteForPreview(response: Response, origin: string): Response {
  let props = ''
  return new HTMLRewriter()
    .on('a[href]', {
      element(element) {
        const href = element.getAttribute('href')!
        const rewritten = previewHref(href, origin)
        if (rewritten !== href) element.setAttribute('href', rewritten)
      },
    })
    .on('script[data-island-props]', {
      text(chunk) {
        props += chunk.text
        if (!chunk.lastInTextNode) {
          chunk.remove()
          return
        }
        let rewritten = props
        try {
          rewritten = serializeProps(previewProps(JSON.parse(props), origin) as object)
        } catch {
          // Props that are not JSON stay as they are: the island reads what the server wrote.
        }
        props = ''
        chunk.replace(rewritten, { html: true })
      },
    })
    .on('meta[name="robots"]', {
      element(element) {
        element.setAttribute('content', 'noindex, nofollow')
      },
    })
    .transform(response)
}
