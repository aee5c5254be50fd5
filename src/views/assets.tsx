/**
 * The client bundle's tags for the document head: the site stylesheet, preloads for the fonts of
 * the page's language, and the entry module. Islands add their own chunks and CSS when they render
 * (src/views/island.tsx).
 */
import { clientManifest } from '../generated/client-manifest'
import type { Lng } from '../shared/languages'

export function ClientAssets({ lng }: { lng: Lng }) {
  return (
    <>
      <link rel="stylesheet" href={clientManifest.css} />
      {clientManifest.fonts[lng].map((href) => (
        <link key={href} rel="preload" href={href} as="font" type="font/woff2" crossOrigin="anonymous" />
      ))}
      {clientManifest.entryPreload.map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
      {/* Not async: a module script runs after the whole streamed document is parsed. */}
      <script type="module" src={clientManifest.entry} />
    </>
  )
}
