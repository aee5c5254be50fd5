/**
 * Every content image goes through here: explicit width and height (the box is reserved before the
 * file arrives), lazy loading below the fold, high fetch priority for the hero, and a bundled
 * fallback when the CMS gives no usable address.
 */
import { safeHref } from '../../content/sanitize-html'

/** Bundled fallbacks (spec section 9). */
export const FALLBACK = {
  banner: '/default-banner.jpg',
  about: '/default-about.jpg',
  enterprise: '/default-enterprise.jpg',
  serviceIcon: '/default-service-icon.png',
} as const

/** A usable image address: http(s) or site-relative; anything else is '' (data:, javascript:). */
export function imageSrc(src: string, fallback = ''): string {
  const safe = src.trim() ? safeHref(src) : null
  return safe && !/^(mailto|tel):/i.test(safe) ? safe : fallback
}

type ImageProps = {
  src: string
  fallback?: string
  alt: string
  width: number
  height: number
  className?: string
  /** The page's largest paint: fetched first, never lazy. */
  priority?: boolean
}

/** An <img>, or nothing when there is neither an address nor a fallback. */
export function Image({ src, fallback, alt, width, height, className, priority = false }: ImageProps) {
  const url = imageSrc(src, fallback)
  if (!url) return null
  return (
    <img
      className={className}
      src={url}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
      fetchPriority={priority ? 'high' : undefined}
    />
  )
}
