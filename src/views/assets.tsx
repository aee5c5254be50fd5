/**
 * The client bundle's tags for the document head: the fonts of the page's language, preloaded; the
 * page's stylesheet (the site's, less the files only other pages use: scripts/build-client.mjs),
 * inlined so that the first paint waits for no request; and the entry module, which arms the
 * islands once the page has loaded (client/main.ts).
 *
 * Fonts are `font-display: optional` and preloaded (docs/decisions/0021-fonts-before-first-layout.md):
 * a preloaded optional font holds the first render for at most 100 ms, so where it arrives in
 * time (any visit after the first, and a first visit on a good connection) the first layout is
 * already in Noto and there is never a second; where it does not, the page keeps its metric-matched
 * fallback face until the next page, and nothing moves.
 */
import { PROJECTS_PATH } from '../content/projects'
import { clientManifest } from '../generated/client-manifest'
import type { Lng } from '../shared/languages'

/**
 * The font subsets each language's pages set their text in: Latin for digits, punctuation and
 * names everywhere, plus the language's own script. Latin Extended is left to load on demand.
 */
export const PRELOADED_FONTS = {
  hy: ['latin', 'armenian'],
  en: ['latin'],
  ru: ['latin', 'cyrillic'],
} as const satisfies Record<Lng, readonly (keyof typeof clientManifest.fonts)[]>

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
      {PRELOADED_FONTS[lng].map((subset) => (
        <link
          key={subset}
          rel="preload"
          as="font"
          type="font/woff2"
          href={clientManifest.fonts[subset]}
          crossOrigin="anonymous"
        />
      ))}
      <style dangerouslySetInnerHTML={{ __html: stylesheetFor(pageKey) }} />
      {clientManifest.entryPreload.map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
      {/* The hydration runtime, fetched at the browser's lowest priority, evaluated only when an island hydrates. */}
      {clientManifest.hydrate.map((href) => (
        <link key={href} rel="prefetch" href={href} crossOrigin="anonymous" />
      ))}
      {/* Not async: a module script runs after the whole streamed document is parsed. */}
      <script type="module" src={clientManifest.entry} />
    </>
  )
}
