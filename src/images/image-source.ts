/**
 * The one reading of an image field from the CMS: the address a slot shows, or its bundled fallback.
 * Views use it to pick what to render and the placeholder lookup uses it to name the same source,
 * so a placeholder computed for a photo is found again when that photo is rendered.
 */
import { safeHref } from '../content/sanitize-html'

/** A usable image address: http(s) or site-relative; anything else (data:, javascript:, mailto:) is `fallback`. */
export function imageSrc(src: string, fallback = ''): string {
  const safe = src.trim() ? safeHref(src) : null
  return safe && !/^(mailto|tel):/i.test(safe) ? safe : fallback
}
