/**
 * The content's images as the image route judges them (src/images/): an original the route would
 * refuse (not on an allowed origin, not found, over the byte or pixel limits, an unknown format, a
 * header it cannot read, SVG) shows the bundled image instead; one far wider than the widest
 * rendition costs the route a large download for every width it makes. The CLI reads the originals
 * (scripts/ops/content-check/); this module only lists them and judges what was read.
 */
import {
  allowedOrigins,
  checkSource,
  IMAGE_WIDTHS,
  MAX_ORIGINAL_BYTES,
  MAX_PIXELS,
  MAX_SIDE,
  readImageSize,
  sniffFormat,
} from '../../images'
import { IMAGE_FIELDS } from '../schemas'
import type { PayloadLoads } from './payload-loads'
import { pageOf, sourceOf } from './payload-names'
import type { Gap } from './report-shape'

/** An original is "far larger" than the widest rendition at this many times its width. */
export const OVERSIZED_FACTOR = 2

/** One image a page shows: where it is used and its address. */
export type ImageUse = { page: string; source: string; field: string; address: string }
/** What reading an original gave: its status, its size in bytes and its bytes (enough for the header), or an error. */
export type OriginalRead = { status: number; bytes: number; head: Uint8Array } | { error: string }

type Fields = Record<string, unknown>

function usesIn(value: unknown, path: string, found: { field: string; address: string }[]): void {
  if (Array.isArray(value)) value.forEach((item, index) => usesIn(item, `${path}[${index}]`, found))
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value as Fields)) {
      const at = path ? `${path}.${key}` : key
      if (IMAGE_FIELDS.has(key) && typeof inner === 'string' && inner)
        found.push({ field: at, address: inner })
      else usesIn(inner, at, found)
    }
  }
}

/** Every image address of the loaded payloads, once per payload and field. */
export function imageUsesOf(loads: PayloadLoads): ImageUse[] {
  return [...loads].flatMap(([tag, load]) => {
    if ('error' in load) return []
    const found: { field: string; address: string }[] = []
    usesIn(load.payload, '', found)
    return found.map((use) => ({ page: pageOf(tag), source: sourceOf(tag), ...use }))
  })
}

/** Whether the image route may open `address` at all, with the site's API_HOST and IMAGE_ORIGINS. */
export function refusedSource(
  address: string,
  env: { API_HOST: string; IMAGE_ORIGINS: string }
): string | null {
  const check = checkSource(address, allowedOrigins(env))
  return check.ok ? null : check.reason
}

/** The gap an original gives, or null when the route shows it as it should. */
export function judgeOriginal(
  use: ImageUse,
  read: OriginalRead
): Omit<Gap, 'fix' | 'counted' | 'accepted'> | null {
  const gap = (kind: Gap['kind'], detail: string) => ({
    page: use.page,
    lng: '*' as const,
    kind,
    source: use.source,
    field: use.field,
    detail: `${use.address}: ${detail}`,
  })
  const failed = (why: string) => gap('image-failed', `${why}: the bundled image is shown`)
  if ('error' in read) return failed(`could not be read (${read.error})`)
  if (read.status !== 200) return failed(`HTTP ${read.status}`)
  if (read.bytes > MAX_ORIGINAL_BYTES)
    return failed(`${read.bytes} bytes, over ${MAX_ORIGINAL_BYTES}`)
  const format = sniffFormat(read.head)
  if (format === null) return failed('not an image format the route knows')
  if (format === 'image/svg+xml') return failed('SVG, which the route never transforms')
  const header = readImageSize(read.head, format)
  if (header.state !== 'read')
    return failed(
      `${format} header ${header.state === 'more' ? 'not within the first bytes' : 'unreadable'}`
    )
  const { width, height } = header.size
  const pixels = `${width}×${height} px, ${read.bytes} bytes`
  if (width * height > MAX_PIXELS || Math.max(width, height) > MAX_SIDE)
    return failed(`${pixels}, over the pixel limits`)
  const widest = Math.max(...IMAGE_WIDTHS)
  if (width > OVERSIZED_FACTOR * widest)
    return gap('image-oversized', `${pixels}; the widest rendition is ${widest} px wide`)
  return null
}
