/**
 * Isolates one section of a page from the others: if rendering it throws (content no one foresaw),
 * the page is still sent, with 200, without that section, and the error is reported once.
 *
 * React's class error boundaries do not run on the server. What does, in React 19's streaming
 * renderer (`renderToReadableStream`), is a Suspense boundary: an error thrown inside one is given
 * to `onError` (src/views/renderer.tsx reports it), the boundary's fallback (nothing) is written
 * in its place, and the rest of the document streams on; a client would retry it, but pages hydrate
 * only their islands, so it simply stays empty. An error outside every boundary still rejects the
 * stream before its first byte and becomes the 500 page. Decision: docs/decisions/0006-hostile-input.md.
 * https://react.dev/reference/react/Suspense#providing-a-fallback-for-server-errors-and-client-only-content
 */
import { Suspense, type ReactNode } from 'react'

export function SectionBoundary({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>
}
