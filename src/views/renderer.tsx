/**
 * The React renderer: every page is streamed inside the Document. Handlers load all their data
 * first (so the status code is final), then call `c.render(<Page />, { shell, placeholders })`.
 *
 * Made per request so that a render error can be reported with the request's tags: an error in a
 * section (inside a SectionBoundary) leaves the rest of the page streaming with 200 and is reported
 * only here; an error outside every boundary rejects the stream before its first byte and reaches
 * app.onError too, which does not report the same error twice (src/observability).
 */
import { reactRenderer } from '@hono/react-renderer'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../env'
import { imageSigningKeys, type Placeholders } from '../images'
import { reportError } from '../observability'
import { ImageSigningContext, PlaceholdersContext } from './components/image'
import { reportOfLoads } from '../report'
import { CONTENT_REPORT_PAGE } from '../shared/report-addresses'
import { PreviewGapsProvider } from './components/gap-marks'
import { Document } from './document'
import type { Shell } from './shell'

declare module '@hono/react-renderer' {
  interface Props {
    shell: Shell
    /** The page's image placeholders by source (src/images/page-placeholders.ts); none on error views. */
    placeholders?: Placeholders
  }
}

const NO_PLACEHOLDERS: Placeholders = new Map()

export const renderer = createMiddleware<AppEnv>((c, next) =>
  reactRenderer(
    ({ children, shell, placeholders = NO_PLACEHOLDERS }) => {
      const page = (pageShell: Shell) => (
        <Document shell={pageShell} version={c.env.CF_VERSION_METADATA?.id}>
          <ImageSigningContext value={imageSigningKeys(c.env).current}>
            <PlaceholdersContext value={placeholders}>{children}</PlaceholdersContext>
          </ImageSigningContext>
        </Document>
      )
      if (!c.var.preview) return page(shell)
      // A preview page (src/preview/) shows the preview bar, with the content report's counts, and
      // its views mark the gaps of what this request loaded (./components/gap-marks.tsx).
      const bar = shell.preview ?? {}
      if (!c.var.previewLoads) return page({ ...shell, preview: bar })
      return (
        <PreviewGapsProvider
          report={reportOfLoads(c.var.previewLoads, c.env)}
          page={shell.pageKey}
          lng={shell.lng}
          reportHref={CONTENT_REPORT_PAGE}
        >
          {(gapCounts) => page({ ...shell, preview: { ...bar, gapCounts } })}
        </PreviewGapsProvider>
      )
    },
    {
      stream: true,
      readableStreamOptions: {
        // Every section is rendered before the first byte (handlers load all data first), so each
        // boundary is written in place: never outlined as a hidden segment that an inline script
        // (which the content security policy would block) has to reveal.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onError(error) {
          console.error(`render failed on ${c.req.method} ${c.req.path}`, error)
          reportError(c, error, 'unexpected')
          // Becomes the boundary's data-dgst: the message stays out of the page.
          return 'render-error'
        },
      },
    }
  )(c, next)
)
