/**
 * GET /_image?src=<source>&w=<ladder width>[&fallback=<bundled slot image>]: a content image
 * resized and re-encoded for the requesting browser (src/images/). Mounted before the language
 * middleware, the page cache and the renderer: it is not a page.
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { reportError } from '../observability'
import { IMAGE_ROUTE, IMAGE_WIDTHS, isImageWidth, isSlotFallback, renderImage } from '../images'
import { textAnswer } from '../images/render-image'

export const images = new Hono<AppEnv>()

images.get(IMAGE_ROUTE, async (c) => {
  const src = c.req.query('src') ?? ''
  const widthParam = c.req.query('w') ?? ''
  const fallback = c.req.query('fallback')
  if (!src.trim()) return textAnswer(400, 'Missing src: /_image?src=<image address>&w=<width>.')
  const width = /^\d+$/.test(widthParam) ? Number(widthParam) : NaN
  if (!isImageWidth(width)) return textAnswer(400, `Width "${widthParam}" is not served; use one of ${IMAGE_WIDTHS.join(', ')}.`)
  if (fallback !== undefined && !isSlotFallback(fallback)) return textAnswer(400, `Fallback "${fallback}" is not a bundled slot image.`)

  return renderImage(
    { src, width, accept: c.req.header('Accept'), fallback },
    {
      env: c.env,
      origin: new URL(c.req.url).origin,
      waitUntil: (promise) => c.executionCtx.waitUntil(promise),
      report: (error, stage) => reportError(c, error, 'backend', { backend_key: 'images', image_stage: stage }),
    },
  )
})
