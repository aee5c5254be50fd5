/**
 * The edge image pipeline (docs/decisions/0003-image-pipeline.md). Views build addresses with
 * `imageUrl`; the route `GET /_image` (src/routes/images.ts) serves them through `renderImage`.
 *
 * For placeholders (issue 12 part B), one function reuses the route's allow-list and its one
 * download path, so originals are fetched in one place only:
 *
 *   loadPreview(env: Bindings, src: string, options?: {
 *     width?: number                                          // default 16 px
 *     format?: 'image/webp' | 'image/png' | 'image/jpeg'      // default image/webp
 *     origin?: string                                         // Cache API key origin
 *     waitUntil?: (promise: Promise<unknown>) => void         // ctx.waitUntil for the cache write
 *   }): Promise<{ bytes: Uint8Array; contentType; originalWidth: number; originalHeight: number } | null>
 *
 * null means the source is refused, missing, SVG, over the limits or failed to transform: render
 * no placeholder then. Results are cached (Cache API) per source, width and format.
 */
export { IMAGE_ROUTE, IMAGE_WIDTHS, SLOT_FALLBACKS, imageUrl, isImageWidth, isSlotFallback, type ImageWidth, type SlotFallback } from './image-url'
export { loadPreview, type Preview, type PreviewFormat, type PreviewOptions } from './preview'
export { renderImage, type RenderContext, type RenderRequest } from './render-image'
