/**
 * The React renderer: every page is streamed inside the Document. Handlers load all their data
 * first (so the status code is final), then call `c.render(<Page />, { shell, placeholders })`.
 */
import { reactRenderer } from '@hono/react-renderer'
import type { Placeholders } from '../images/placeholders'
import { PlaceholdersContext } from './components/image'
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

export const renderer = reactRenderer(
  ({ children, shell, placeholders = NO_PLACEHOLDERS }) => (
    <Document shell={shell}>
      <PlaceholdersContext value={placeholders}>{children}</PlaceholdersContext>
    </Document>
  ),
  {
  stream: true,
  readableStreamOptions: {
    // Pages have no Suspense boundary, so a render error rejects the stream before its first byte
    // and reaches app.onError, which reports it (tests/worker/observability.test.ts); only log here.
    onError(error) {
      console.error('render failed', error)
    },
  },
  },
)
