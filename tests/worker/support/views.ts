/**
 * Renders a page view to HTML with a hand-made payload parsed through the real schema, and reads
 * elements back out of the markup with HTMLRewriter, so fallback cases need no backend.
 */
import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'

/** The markup of `Component` rendered with `props`. */
export function renderView<P extends object>(Component: ComponentType<P>, props: P): string {
  return renderToString(createElement(Component, props))
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'])

export type Found = { attrs: Record<string, string>; text: string }

/** Every element matching the CSS `selector`, with its attributes and its text content. */
export async function select(html: string, selector: string): Promise<Found[]> {
  const found: Found[] = []
  const open = new Set<Found>()
  await new HTMLRewriter()
    .on(selector, {
      element(element) {
        const attrs = Object.fromEntries([...element.attributes].map(([name, value]) => [name, decodeEntities(value ?? '')]))
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
