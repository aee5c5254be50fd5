/**
 * Renders a page view to HTML with a hand-made payload parsed through the real schema, and reads
 * elements back out of the markup with HTMLRewriter, so fallback cases need no backend.
 */
import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { DEV_IMAGE_URL_SECRET } from '../../../src/images/image-signature'
import { ImageSigningContext } from '../../../src/views/components/image'

/** The markup of `Component` rendered with `props`, its image addresses signed as under `npm test` (the renderer provides the key). */
export function renderView<P extends object>(Component: ComponentType<P>, props: P): string {
  return renderToString(
    createElement(
      ImageSigningContext,
      { value: DEV_IMAGE_URL_SECRET },
      createElement(Component, props)
    )
  )
}

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
])

export type Found = { attrs: Record<string, string>; text: string }

/** Every element matching the CSS `selector`, with its attributes and its text content. */
export async function select(html: string, selector: string): Promise<Found[]> {
  const found: Found[] = []
  const open = new Set<Found>()
  await new HTMLRewriter()
    .on(selector, {
      element(element) {
        const attrs = Object.fromEntries(
          [...element.attributes].map(([name, value]) => [name, decodeEntities(value ?? '')])
        )
        const entry: Found = { attrs, text: '' }
        found.push(entry)
        if (!VOID.has(element.tagName)) {
          open.add(entry)
          element.onEndTag(() => {
            open.delete(entry)
          })
        }
      },
      text(chunk) {
        for (const entry of open) entry.text += chunk.text
      },
    })
    .transform(new Response(html))
    .text()
  for (const entry of found) entry.text = decodeEntities(entry.text).replace(/\s+/g, ' ').trim()
  return found
}

/** The first element matching `selector`, or undefined. */
export async function selectOne(html: string, selector: string): Promise<Found | undefined> {
  return (await select(html, selector))[0]
}

/** The levels of the headings in document order: [1, 2, 3, 2, ...]. */
export function headingLevels(html: string): number[] {
  return [...html.matchAll(/<h([1-6])[\s>]/g)].map((match) => Number(match[1]))
}

/** Whether no heading skips a level on the way down (h2 -> h4 is a skip; h3 -> h2 is fine). */
export function headingsInOrder(levels: number[]): boolean {
  return levels.every((level, index) => index === 0 || level <= levels[index - 1]! + 1)
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&')
}

/**
 * What a page's links and images must get right, as a list of problems (empty when all is well):
 * http(s) links open in a new tab without an opener, internal links keep the language prefix,
 * every image has a source, sizes and alt, a link whose only content is images has alt text saying
 * where it leads (HTML_CodeSniffer's H30), and only the banner image is eager and high-priority.
 */
export async function pageProblems(html: string, lng: 'hy' | 'en' | 'ru'): Promise<string[]> {
  const problems: string[] = []
  for (const { attrs } of await select(html, 'main a[href]')) {
    const href = attrs.href ?? ''
    if (/^https?:/i.test(href)) {
      if (attrs.target !== '_blank' || attrs.rel !== 'noopener noreferrer')
        problems.push(`external link without target/rel: ${href}`)
    } else if (href.startsWith('/')) {
      const prefixed = /^\/(en|ru)(\/|$|[?#])/.exec(href)?.[1]
      if ((prefixed ?? 'hy') !== lng) problems.push(`internal link leaves ${lng}: ${href}`)
      if (attrs.target) problems.push(`internal link opens a new tab: ${href}`)
    } else if (!/^(mailto|tel):|^#/.test(href)) {
      problems.push(`unexpected link: ${href}`)
    }
  }
  for (const link of imageOnlyLinks(html)) {
    if (!link.alts.some((alt) => alt.trim()))
      problems.push(`image-only link without alt text: ${link.href}`)
  }
  const images = await select(html, 'main img')
  images.forEach(({ attrs }, index) => {
    if (!attrs.src) problems.push(`image ${index} without src`)
    if (!imageSource(attrs.src ?? ''))
      problems.push(`image not served by the image route: ${attrs.src}`)
    if (!attrs.srcset || !attrs.sizes) problems.push(`image without srcset and sizes: ${attrs.src}`)
    if (!(Number(attrs.width) > 0 && Number(attrs.height) > 0))
      problems.push(`image without sizes: ${attrs.src}`)
    if (attrs.alt === undefined) problems.push(`image without alt: ${attrs.src}`)
    const hero = Boolean(attrs.class?.includes('page-banner__image'))
    if (hero !== (attrs.fetchpriority === 'high'))
      problems.push(`fetchpriority on the wrong image: ${attrs.src}`)
    if (hero === (attrs.loading === 'lazy'))
      problems.push(`loading=${attrs.loading} on ${attrs.src}`)
  })
  if (!images[0]?.attrs.class?.includes('page-banner__image'))
    problems.push('the first image is not the banner')
  return problems
}

/** Links whose content is images and no text, with their images' alt texts. */
function imageOnlyLinks(html: string): { href: string; alts: string[] }[] {
  return [...html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/g)]
    .filter(([, , content]) => /<img\b/.test(content!) && !content!.replace(/<[^>]*>/g, '').trim())
    .map(([, attributes, content]) => ({
      href: /\bhref="([^"]*)"/.exec(attributes!)?.[1] ?? '',
      alts: [...content!.matchAll(/<img\b[^>]*>/g)].map(([tag]) =>
        decodeEntities(/\balt="([^"]*)"/.exec(tag)?.[1] ?? '')
      ),
    }))
}

/** The source an image route address (`/_image?src=…&w=…`) serves, or '' for any other address. */
export function imageSource(url: string): string {
  const parsed = new URL(url, 'http://localhost')
  return parsed.pathname === '/_image' ? (parsed.searchParams.get('src') ?? '') : ''
}
