/**
 * What every answer under /_preview says, whatever made it (a page, a redirect, a refusal, an error
 * view): `Cache-Control: private, no-store` and `X-Robots-Tag: noindex`, so that no cache keeps it
 * and no search engine lists it; none of the page cache's headers (validators, Cache-Tag, the edge's
 * own Cache-Control) and no Speculation-Rules. A page shown in preview has its links (and a
 * redirect its Location) lead to previews (./rewrite-links.ts).
 */
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../env'
import { previewHref, rewriteForPreview } from './rewrite-links'

export const PREVIEW_CACHE_CONTROL = 'private, no-store'

/** Headers a preview answer never carries: caches' and prerendering's. */
const DROPPED_HEADERS = [
  'ETag',
  'Last-Modified',
  'Cache-Tag',
  'Cloudflare-CDN-Cache-Control',
  'CDN-Cache-Control',
  'Speculation-Rules',
]

export const previewAnswers = createMiddleware<AppEnv>(async (c, next) => {
  await next()
  const { headers } = c.res
  const origin = new URL(c.req.url).origin
  headers.set('Cache-Control', PREVIEW_CACHE_CONTROL)
  headers.set('X-Robots-Tag', 'noindex')
  for (const name of DROPPED_HEADERS) headers.delete(name)
  // Only a page shown in preview leads to other previews; entering and leaving lead where they say.
  if (!c.var.preview) return
  const location = headers.get('Location')
  if (location) headers.set('Location', previewHref(location, origin))
  if (headers.get('Content-Type')?.startsWith('text/html')) c.res = rewriteForPreview(c.res, origin)
})
