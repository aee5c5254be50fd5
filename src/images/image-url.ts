/**
 * The address of a content image on the site's own image route (`GET /_image`): the contract views
 * and the route share. Widths come from one fixed ladder, so every visitor asking for the same
 * photo at the same slot asks for the same URL, and the edge transforms it once per width and
 * format (docs/decisions/0003-image-pipeline.md).
 */

/**
 * The widths the route serves; any other `w` is refused with 400. 96 and 160 are for icons and
 * logos (40–44 CSS px: 80–132 device px), which 320 would oversize fourfold on a phone.
 */
export const IMAGE_WIDTHS = [96, 160, 320, 480, 640, 768, 960, 1280, 1600, 1920] as const

export type ImageWidth = (typeof IMAGE_WIDTHS)[number]

/**
 * The bundled image a slot shows when its source cannot be served (spec section 9). The route
 * accepts only these as `fallback`, so the parameter can never point it elsewhere.
 */
export const SLOT_FALLBACKS = ['/default-banner.jpg', '/default-about.jpg', '/default-enterprise.jpg', '/default-service-icon.png'] as const

export type SlotFallback = (typeof SLOT_FALLBACKS)[number]

/** The route's path on the site origin. */
export const IMAGE_ROUTE = '/_image'

/**
 * `/_image?src=<src>&w=<width>[&fallback=<fallback>]`. `src` is a site-relative path or an absolute
 * http(s) address the route's allow-list names; `width` should be one of IMAGE_WIDTHS.
 */
export function imageUrl(src: string, width: number, fallback?: string): string {
  const query = `src=${encodeURIComponent(src)}&w=${width}`
  return `${IMAGE_ROUTE}?${fallback ? `${query}&fallback=${encodeURIComponent(fallback)}` : query}`
}

/** Whether `width` is on the ladder. */
export function isImageWidth(width: number): width is ImageWidth {
  return (IMAGE_WIDTHS as readonly number[]).includes(width)
}

/** Whether `path` is one of the bundled slot fallbacks. */
export function isSlotFallback(path: string): path is SlotFallback {
  return (SLOT_FALLBACKS as readonly string[]).includes(path)
}
