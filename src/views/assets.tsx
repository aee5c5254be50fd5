/**
 * The client bundle's tags for the document head: the site stylesheet, inlined so that the first
 * paint waits for no request, and the entry module, which hydrates the islands once the page has
 * loaded (client/main.ts). Fonts are not preloaded: they would compete with the hero image for the
 * first bytes, and `font-display: swap` paints the text at once in a fallback face.
 */
import { clientManifest } from '../generated/client-manifest'

export function ClientAssets() {
  return (
    <>
      <style dangerouslySetInnerHTML={{ __html: clientManifest.stylesheet.css }} />
      {clientManifest.entryPreload.map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
      {/* Not async: a module script runs after the whole streamed document is parsed. */}
      <script type="module" src={clientManifest.entry} />
    </>
  )
}
