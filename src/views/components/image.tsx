/**
 * Every content image goes through here. It points at the site's image route (src/images/image-url.ts),
 * never at the original: `srcset` over the widths its layout can need and `sizes` saying how wide it
 * is displayed (./image-layouts.ts), so a phone fetches a phone-sized AVIF or WebP. Explicit width
 * and height reserve the box before the file arrives (CLS 0); below the fold it loads lazily; the
 * page's largest paint is eager with high priority, which React also preloads from the head
 * (an eager <img> becomes `<link rel="preload" as="image" imagesrcset imagesizes>`). Photos paint a
 * placeholder computed from the image itself (src/images/placeholders.ts) until they arrive.
 */
import { createContext, useContext, type CSSProperties } from 'react'
import {
  IMAGE_WIDTHS,
  imageSrc,
  imageUrl,
  type Placeholders,
  type SlotFallback,
} from '../../images'
import { IMAGE_LAYOUTS, widthsFor, type ImageLayoutName } from './image-layouts'

export { imageSrc } from '../../images'

/** Bundled fallbacks (spec section 9); the image route serves these when a source fails. */
export const FALLBACK = {
  banner: '/default-banner.jpg',
  about: '/default-about.jpg',
  enterprise: '/default-enterprise.jpg',
  serviceIcon: '/default-service-icon.png',
} as const satisfies Record<string, SlotFallback>

/** The page's placeholders by source, read before rendering (src/routes/pages.tsx). */
export const PlaceholdersContext = createContext<Placeholders>(new Map())

/**
 * The key that signs image addresses (src/images/image-signature.ts), provided by the renderer from
 * IMAGE_URL_SECRET. Without a provider, addresses are signed with no key, which the route refuses.
 */
export const ImageSigningContext = createContext<string>('')

type ImageProps = {
  src: string
  fallback?: SlotFallback
  /** Empty for decoration, or when a visible caption beside the image already says it. */
  alt: string
  /** Intrinsic size: only the aspect ratio matters, the stylesheet sets the displayed size. */
  width: number
  height: number
  /** Where it sits, hence how wide it is displayed. */
  layout: ImageLayoutName
  className?: string
  /** The page's largest paint: fetched first, never lazy. */
  priority?: boolean
}

/** The `src` for a browser that reads no srcset: the widest listed width up to 768 (a phone at DPR 2). */
const SRC_WIDTH = 768

function fallbackWidth(widths: readonly number[]): number {
  return widths.filter((width) => width <= SRC_WIDTH).at(-1) ?? widths[0]!
}

/**
 * The signed `src` and `srcset` of an image in a layout, remembered per isolate: every render of a
 * page names the same images again. Bounded: a full memo starts over.
 */
const addressesByImage = new Map<string, { src: string; srcSet: string }>()
const MAX_REMEMBERED_IMAGES = 2_000

function imageAddresses(
  source: string,
  layout: ImageLayoutName,
  slotFallback: string | undefined,
  secret: string
) {
  const memo = `${layout}\n${slotFallback === undefined ? '-' : `+${slotFallback.length}:${slotFallback}`}\n${secret.length}:${secret}\n${source}`
  const known = addressesByImage.get(memo)
  if (known) return known
  const widths = widthsFor(IMAGE_LAYOUTS[layout], IMAGE_WIDTHS)
  const addresses = {
    src: imageUrl(source, fallbackWidth(widths), slotFallback, secret),
    srcSet: widths.map((w) => `${imageUrl(source, w, slotFallback, secret)} ${w}w`).join(', '),
  }
  if (addressesByImage.size >= MAX_REMEMBERED_IMAGES) addressesByImage.clear()
  addressesByImage.set(memo, addresses)
  return addresses
}

/** An <img>, or nothing when there is neither an address nor a fallback. */
export function Image({
  src,
  fallback,
  alt,
  width,
  height,
  layout,
  className,
  priority = false,
}: ImageProps) {
  const placeholders = useContext(PlaceholdersContext)
  const secret = useContext(ImageSigningContext)
  const source = imageSrc(src, fallback)
  if (!source) return null
  // The fallback is the source itself when the CMS gave none; the route needs no second one then.
  const slotFallback = source === fallback ? undefined : fallback
  const { sizes, placeholder } = IMAGE_LAYOUTS[layout]
  const preview = placeholder ? placeholders.get(source) : undefined
  const addresses = imageAddresses(source, layout, slotFallback, secret)
  return (
    <img
      className={className}
      src={addresses.src}
      srcSet={addresses.srcSet}
      sizes={sizes}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
      fetchPriority={priority ? 'high' : undefined}
      style={preview ? placeholderStyle(preview) : undefined}
    />
  )
}

/**
 * The tiny preview stretched over the box as object-fit: cover stretches the photo, which then
 * paints over it. One `background` declaration, the only inline style .htmlvalidate.json allows.
 * The attribute holds no ';' for a declaration splitter (html-validate's, for one) to cut the URL
 * at: the URL is unquoted (quotes would be written `&quot;`), which base64 allows, and the data
 * URI's own ';' is the CSS escape `\3b ` (the same URL once parsed).
 */
function placeholderStyle(preview: string): CSSProperties {
  return { background: `center / cover no-repeat url(${preview.replaceAll(';', '\\3b ')})` }
}
