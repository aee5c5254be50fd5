/**
 * The React renderer: every page is streamed inside the Document. Handlers load all their data
 * first (so the status code is final), then call `c.render(<Page />, { shell })`.
 */
import { reactRenderer } from '@hono/react-renderer'
import { Document } from './document'
import type { Shell } from './shell'

declare module '@hono/react-renderer' {
  interface Props {
    shell: Shell
  }
}

export const renderer = reactRenderer(({ children, shell }) => <Document shell={shell}>{children}</Document>, {
  stream: true,
  readableStreamOptions: {
    // Pages have no Suspense boundary, so a render error rejects the stream before its first byte
    // and reaches app.onError, which reports it (tests/worker/observability.test.ts); only log here.
    onError(error) {
      console.error('render failed', error)
    },
  },
})
