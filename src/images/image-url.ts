/**
 * The address of a content image on the site's own image route (`GET /_image`): the contract views
 * and the route share. Widths come from one fixed ladder, so every visitor asking for the same
 * photo at the same slot asks for the same URL, and the edge transforms it once per width and
 * format (docs/decisions/0012-image-route.md).
 */
import { imageSignature } from './image-signature'
import { IMAGE_ROUTE } from '../shared/site-paths'

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
export const SLOT_FALLBACKS = [
  '/default-banner.jpg',
  '/default-about.jpg',
  '/default-enterprise.jpg',
  '/default-service-icon.png',
] as const

export type SlotFallback = (typeof SLOT_FALLBACKS)[number]

/**
 * The link-preview size (Open Graph and Twitter cards: 1.91:1, 1200 px wide): the one size the
 * route also crops to, asked for with `&w=1200&h=630`. Its rendition is a JPEG (or a PNG for a PNG
 * or GIF source) whatever the Accept header says: crawlers that read neither AVIF nor WebP accept
 * any type (the wildcard) or send an image list of their own.
 */
export const SOCIAL_CARD = { width: 1200, height: 630 } as const

/**
 * What an address's signature covers besides its source and fallback (./image-signature.ts): any
 * width of IMAGE_WIDTHS, so one signature serves an image's whole srcset.
 */
export const LADDER_SIGNED_SIZE = 'ladder'

/** A social card's signature covers its one size, so no ladder address's signature is a card's. */
export const CARD_SIGNED_SIZE = `${SOCIAL_CARD.width}x${SOCIAL_CARD.height}`

/**
 * `/_image?src=<src>&w=<width>[&fallback=<fallback>]&s=<signature>`, the one spelling the route
 * accepts (readImageAddress). `src` is a site-relative path or an absolute http(s) address the
 * route's allow-list names; `width` should be one of IMAGE_WIDTHS; `secret` signs its source and
 * fallback for every ladder width (./image-signature.ts: the route transforms only what the site's
 * pages name).
 */
export function imageUrl(
  src: string,
  width: number,
  fallback: string | undefined,
  secret: string
): string {
  return `${IMAGE_ROUTE}?${canonicalQuery(src, String(width), fallback, imageSignature(secret, src, LADDER_SIGNED_SIZE, fallback ?? ''))}`
}

/**
 * `/_image?src=<src>&w=1200&h=630[&fallback=<fallback>]&s=<signature>`: `src` cropped to the
 * social card's size (SOCIAL_CARD), in a format every link preview reads. Signed over the size
 * `1200x630` (CARD_SIGNED_SIZE), so no ladder address's signature is one of these.
 */
export function socialCardUrl(src: string, fallback: string | undefined, secret: string): string {
  const { width, height } = SOCIAL_CARD
  return `${IMAGE_ROUTE}?${canonicalQuery(src, String(width), fallback, imageSignature(secret, src, CARD_SIGNED_SIZE, fallback ?? ''), String(height))}`
}

function canonicalQuery(
  src: string,
  width: string,
  fallback: string | undefined,
  signature: string,
  height?: string
): string {
  const fallbackPart = fallback === undefined ? '' : `&fallback=${encodeParam(fallback)}`
  const heightPart = height === undefined ? '' : `&h=${height}`
  return `src=${encodeParam(src)}&w=${width}${heightPart}${fallbackPart}&s=${signature}`
}

/** encodeURIComponent, plus the characters it leaves that a URL parser may encode itself (`'` in a query). */
function encodeParam(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`
  )
}

/** What a request to the route asks for, read from its query, or why it is refused before any work. */
export type ImageAddress =
  | {
      ok: true
      src: string
      width: ImageWidth | typeof SOCIAL_CARD.width
      fallback?: SlotFallback
      signature: string
      card?: true
    }
  | {
      ok: false
      reason: 'missing-src' | 'width-not-served' | 'fallback-not-served' | 'not-canonical'
    }

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
  const heightParam = params.get('h') ?? undefined
  const fallback = params.get('fallback') ?? undefined
  if (!src.trim()) return { ok: false, reason: 'missing-src' }
  const width = /^\d+$/.test(widthParam) ? Number(widthParam) : NaN
  // A height is only ever the social card's, with its width; any other size is not served.
  const card = heightParam !== undefined
  if (
    card
      ? width !== SOCIAL_CARD.width || heightParam !== String(SOCIAL_CARD.height)
      : !isImageWidth(width)
  ) {
    return { ok: false, reason: 'width-not-served' }
  }
  if (fallback !== undefined && !isSlotFallback(fallback))
    return { ok: false, reason: 'fallback-not-served' }
  const signature = params.get('s') ?? ''
  if (url.search !== `?${canonicalQuery(src, widthParam, fallback, signature, heightParam)}`)
    return { ok: false, reason: 'not-canonical' }
  return {
    ok: true,
    src,
    width: width as ImageWidth,
    signature,
    ...(fallback !== undefined && { fallback }),
    ...(card && { card: true as const }),
  }
}

/** Whether `width` is on the ladder. */
export function isImageWidth(width: number): width is ImageWidth {
  return (IMAGE_WIDTHS as readonly number[]).includes(width)
}

/** Whether `path` is one of the bundled slot fallbacks. */
export function isSlotFallback(path: string): path is SlotFallback {
  return (SLOT_FALLBACKS as readonly string[]).includes(path)
}
