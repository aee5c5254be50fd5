/**
 * The client bundle's tags for the document head: the page's stylesheet (the site's, less the
 * files only other pages use: scripts/build-client.mjs), inlined so that the first paint waits for
 * no request, and the entry module, which arms the islands once the page has loaded
 * (client/main.ts) and, when the main thread is idle after the load, prefetches the hydration
 * runtime named in its `data-hydration-runtime`. Fonts are not preloaded: they would compete with
 * the hero image for the first bytes, and `font-display: swap` paints the text at once in a
 * fallback face.
 */
import { PROJECTS_PATH } from '../content/projects'
import { clientManifest } from '../generated/client-manifest'

/** The inlined stylesheet for the page at `pageKey` (its path without language prefix). */
export function stylesheetFor(pageKey: string): string {
  const { stylesheets } = clientManifest
  const kind = pageKey.startsWith(`${PROJECTS_PATH}/`) ? `${PROJECTS_PATH}/*` : pageKey
  return Object.prototype.hasOwnProperty.call(stylesheets, kind)
    ? stylesheets[kind as keyof typeof stylesheets]
    : stylesheets.other
}

export function ClientAssets({ pageKey }: { pageKey: string }) {
  return (
    <>
      <style dangerouslySetInnerHTML={{ __html: stylesheetFor(pageKey) }} />
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
