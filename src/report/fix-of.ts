/** What an editor (or a developer, for a dictionary) does about a gap, in one sentence. */
import { IMAGE_WIDTHS } from '../images'
import { OVERSIZED_FACTOR } from './image-findings'
import type { Gap } from './report-shape'

/** The fix of `gap`, naming its field. */
export function fixOf(gap: Omit<Gap, 'fix' | 'counted' | 'accepted'>): string {
  const field = gap.field.split('.').pop() ?? gap.field
  switch (gap.kind) {
    case 'fallback':
    case 'empty':
      return `fill ${field} in ${gap.source}`
    case 'dictionary-default':
      return `fill ${field} in ${gap.source} to show your own text`
    case 'hidden-section':
      return `add items to ${field} in ${gap.source}`
    case 'dropped-address':
      return `give ${field} an http(s) address or a site path${/link|facebook|instagram|linkedin|twitter|youtube|pinterest|tiktok/i.test(field) ? ' (or mailto:, tel:)' : ''}`
    case 'sanitized':
      return `remove what was removed from ${field}, or accept that visitors do not get it`
    case 'no-page':
      return "give the item an id of letters, digits, '_', '.' or '~' that no other item has, and a title in every language"
    case 'image-failed':
      return 'upload a JPEG, PNG, GIF, WebP or AVIF image (under 25 MB and 100 megapixels) on the backend or an IMAGE_ORIGINS origin'
    case 'image-oversized':
      return `upload it at most ${OVERSIZED_FACTOR * Math.max(...IMAGE_WIDTHS)} px wide`
    case 'payload-failed':
      return `make the backend answer ${gap.source} with {"payload": {...}}; until then the site shows its last good copy`
    case 'dictionary-key':
      return `add ${gap.field} to ${gap.source}`
  }
}
