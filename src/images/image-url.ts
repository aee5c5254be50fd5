/**
 * The address of a content image on the site's own image route (`GET /_image`): the contract views
 * and the route share. Widths come from one fixed ladder, so every visitor asking for the same
 * photo at the same slot asks for the same URL, and the edge transforms it once per width and
 * format (docs/decisions/0015-image-route.md).
 */
import { imageSignature } from './image-signature'

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
 * `/_image?src=<src>&w=<width>[&fallback=<fallback>]&s=<signature>`, the one spelling the route
 * accepts (readImageAddress). `src` is a site-relative path or an absolute http(s) address the
 * route's allow-list names; `width` should be one of IMAGE_WIDTHS; `secret` signs it
 * (./image-signature.ts: the route transforms only what the site's pages name).
 */
export function imageUrl(src: string, width: number, fallback: string | undefined, secret: string): string {
  return `${IMAGE_ROUTE}?${canonicalQuery(src, String(width), fallback, imageSignature(secret, src, width, fallback ?? ''))}`
}

function canonicalQuery(src: string, width: string, fallback: string | undefined, signature: string): string {
  const fallbackPart = fallback === undefined ? '' : `&fallback=${encodeParam(fallback)}`
  return `src=${encodeParam(src)}&w=${width}${fallbackPart}&s=${signature}`
}

/** encodeURIComponent, plus the characters it leaves that a URL parser may encode itself (`'` in a query). */
function encodeParam(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** What a request to the route asks for, read from its query, or why it is refused before any work. */
export type ImageAddress =
  | { ok: true; src: string; width: ImageWidth; fallback?: SlotFallback; signature: string }
  | { ok: false; reason: 'missing-src' | 'width-not-served' | 'fallback-not-served' | 'not-canonical' }

/**
 * Reads `/_image?...` strictly: each of src, w, fallback and s at most once, nothing else, and the
 * query exactly as imageUrl writes it (parameter order, percent-encoding). Any respelling of a
 * page's address (another parameter, a case or encoding change) is refused here, before the
 * signature, the cache or the origin are looked at.
 */
export function readImageAddress(url: URL): ImageAddress {
  const params = url.searchParams
  const src = params.get('src') ?? ''
  const widthParam = params.get('w') ?? ''
  const fallback = params.get('fallback') ?? undefined
  if (!src.trim()) return { ok: false, reason: 'missing-src' }
  const width = /^\d+$/.test(widthParam) ? Number(widthParam) : NaN
  if (!isImageWidth(width)) return { ok: false, reason: 'width-not-served' }
  if (fallback !== undefined && !isSlotFallback(fallback)) return { ok: false, reason: 'fallback-not-served' }
  const signature = params.get('s') ?? ''
  if (url.search !== `?${canonicalQuery(src, widthParam, fallback, signature)}`) return { ok: false, reason: 'not-canonical' }
  return fallback === undefined ? { ok: true, src, width, signature } : { ok: true, src, width, fallback, signature }
}

/** Whether `width` is on the ladder. */
export function isImageWidth(width: number): width is ImageWidth {
  return (IMAGE_WIDTHS as readonly number[]).includes(width)
}

/** Whether `path` is one of the bundled slot fallbacks. */
export function isSlotFallback(path: string): path is SlotFallback {
  return (SLOT_FALLBACKS as readonly string[]).includes(path)
}
