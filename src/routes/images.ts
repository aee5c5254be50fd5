/**
 * GET /_image?src=<source>&w=<ladder width>[&fallback=<bundled slot image>]&s=<signature>: a content
 * image resized and re-encoded for the requesting browser (src/images/); with `&w=1200&h=630`, cropped
 * to a link preview's card in JPEG or PNG (SOCIAL_CARD). Mounted before the language
 * middleware, the page cache and the renderer: it is not a page.
 *
 * Before any cache read, download or transform, the address must be one the site's pages write:
 * exactly as imageUrl spells it (no other parameter, encoding or order), at a ladder width, and
 * its source and fallback signed with IMAGE_URL_SECRET (or the previous key during a rotation).
 * Anything else is refused with a fixed reason and costs a string comparison and one HMAC.
 * `Cache-Control: only-if-cached` asks for a cached rendition only: a 504 when there is none.
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { reportError } from '../observability'
import {
  CARD_SIGNED_SIZE,
  imageSigningKeys,
  isSignedBy,
  LADDER_SIGNED_SIZE,
  readImageAddress,
  refusal,
  renderImage,
} from '../images'
import { IMAGE_ROUTE } from '../shared/site-paths'

export const images = new Hono<AppEnv>()

images.get(IMAGE_ROUTE, async (c) => {
  const address = readImageAddress(new URL(c.req.url))
  if (!address.ok) return refusal(400, address.reason)
  const { src, width, fallback, signature, card } = address
  const signedSize = card ? CARD_SIGNED_SIZE : LADDER_SIGNED_SIZE
  if (!isSignedBy(imageSigningKeys(c.env), signature, src, signedSize, fallback))
    return refusal(403, 'not-signed')

  return renderImage(
    {
      src,
      width,
      accept: c.req.header('Accept'),
      fallback,
      client: c.req.header('CF-Connecting-IP') ?? 'unknown',
      ...(card && { card }),
      ...(/\bonly-if-cached\b/i.test(c.req.header('Cache-Control') ?? '') && {
        onlyIfCached: true as const,
      }),
    },
    {
      env: c.env,
      origin: new URL(c.req.url).origin,
      waitUntil: (promise) => c.executionCtx.waitUntil(promise),
      report: (error, stage) =>
        reportError(c, error, 'backend', { backend_key: 'images', image_stage: stage }),
    }
  )
})
