/**
 * The client bundle's tags for the document head: the page's stylesheet (the site's, less the
 * files only other pages use: scripts/build-client.mjs), inlined so that the first paint waits for
 * no request; the font files its language's text is set in, preloaded at the lowest priority; and
 * the entry module, which arms the islands once the page has loaded (client/main.ts) and, when the
 * main thread is idle after the load, prefetches the hydration runtime named in its
 * `data-hydration-runtime`.
 *
 * Fonts at low priority (docs/decisions/0025-fonts-preloaded-at-low-priority.md): found by the
 * stylesheet in the first layout, they would be requested at the highest priority and compete with
 * the banner photo; `font-display: swap` paints the text at once in the metric-matched fallback, so
 * nothing waits for them.
 */
import { PROJECTS_PATH } from '../shared/site-paths'
import { clientManifest } from '../generated/client-manifest'
import type { Lng } from '../shared/languages'

type FontSubset = keyof typeof clientManifest.fonts

/**
 * The font subsets each language's pages set their text in: Latin for spaces, digits and
 * punctuation on every page. Latin Extended is for the rare character, fetched only when a page has
 * one.
 */
export const FONT_SUBSETS: Record<Lng, readonly FontSubset[]> = {
  hy: ['latin', 'armenian'],
  en: ['latin'],
  ru: ['latin', 'cyrillic'],
}

/** The inlined stylesheet for the page at `pageKey` (its path without language prefix). */
export function stylesheetFor(pageKey: string): string {
  const { stylesheets } = clientManifest
  const kind = pageKey.startsWith(`${PROJECTS_PATH}/`) ? `${PROJECTS_PATH}/*` : pageKey
  return Object.prototype.hasOwnProperty.call(stylesheets, kind)
    ? stylesheets[kind as keyof typeof stylesheets]
    : stylesheets.other
}

export function ClientAssets({ pageKey, lng }: { pageKey: string; lng: Lng }) {
  return (
    <>
      <style dangerouslySetInnerHTML={{ __html: stylesheetFor(pageKey) }} />
      {FONT_SUBSETS[lng].map((subset) => (
        <link
          key={subset}
          rel="preload"
          as="font"
          type="font/woff2"
          crossOrigin="anonymous"
          href={clientManifest.fonts[subset]}
          fetchPriority="low"
        />
      ))}
      {clientManifest.entryPreload.map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
      {/* Not async: a module script runs after the whole streamed document is parsed. */}
      <script
        type="module"
        src={clientManifest.entry}
        data-hydration-runtime={clientManifest.hydrate.join(' ')}
      />
    </>
  )
}
