/**
 * The edge image pipeline (docs/decisions/0012-image-route.md to 0015). Views build addresses with
 * `imageUrl`; the route `GET /_image` (src/routes/images.ts) serves them through `renderImage`.
 *
 * For placeholders, one function reuses the route's allow-list, its one download
 * path and its limits, so originals are fetched in one place only:
 *
 *   renderPreview(env: PreviewEnv, src: string, width: number, format: RasterFormat = 'image/webp')
 *     : Promise<{ bytes: Uint8Array; original: { width: number; height: number } }>
 *
 * It throws an Error saying why (refused, missing, SVG, over the limits, transform failed); it
 * caches nothing, so the caller keeps the result where it fits (placeholders: KV, every data centre).
 */
export {
  IMAGE_WIDTHS,
  SLOT_FALLBACKS,
  CARD_SIGNED_SIZE,
  imageUrl,
  LADDER_SIGNED_SIZE,
  readImageAddress,
  socialCardUrl,
  isImageWidth,
  isSlotFallback,
  type ImageWidth,
  type SlotFallback,
} from './image-url'
export type { RasterFormat } from './image-format'
export { renderPreview, type Preview, type PreviewEnv } from './preview'
export { refusal, renderImage } from './image-answers'
export { imageSigningKeys, isSignedBy } from './image-signature'
export { imageSrc } from './image-source'
export { openOriginal, originTimeoutMs, type LoadResult } from './load-original'
export { allowedOrigins, checkSource } from './source-policy'
export {
  placeholdersFor,
  readPlaceholdersBeside,
  warmChangedPlaceholders,
} from './page-placeholders'
export type { Placeholders } from './placeholders'
export { renditionsWarmer } from './warm-renditions'
export type { RenderContext, RenderRequest } from './image-miss'
