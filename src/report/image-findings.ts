/**
 * The content's images as the image route judges them (src/images/): an original the route would
 * refuse (not on an allowed origin, not found, over the byte or pixel limits, an unknown format, a
 * header it cannot read, SVG) shows the bundled image instead; one far wider than the widest
 * rendition costs the route a large download for every width it makes. Originals are opened by the
 * route's own loader, so the report cannot judge an image otherwise than the route.
 */
import { allowedOrigins, checkSource, IMAGE_WIDTHS, openOriginal, type LoadResult } from '../images'
import { IMAGE_FIELDS } from '../content/schemas'
import type { PayloadLoads } from './payload-loads'
import { pageOf, sourceOf } from './payload-names'
import type { Gap } from './report-shape'

/** An original is "far larger" than the widest rendition at this many times its width. */
export const OVERSIZED_FACTOR = 2

/** One image a page shows: where it is used and its address. */
export type ImageUse = { page: string; source: string; field: string; address: string }

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

/** How to open originals as the image route does: its allow-list, its ASSETS, its time-out. */
export type OpenOptions = {
  env: { API_HOST: string; IMAGE_ORIGINS: string }
  /** The site's bundled files (the route's ASSETS binding; the CLI reads public/). */
  assets: Fetcher
  timeoutMs: number
}

/**
 * The gaps of the images `loads` show, each original opened once by the route's own loader
 * (../../images/load-original.ts): the same allow-list, redirects followed only onto allowed
 * origins, the same Accept header, byte and pixel limits.
 */
export async function findImageGaps(
  loads: PayloadLoads,
  options: OpenOptions
): Promise<GapDraft[]> {
  const origins = allowedOrigins(options.env)
  const opened = new Map<string, Promise<LoadResult | { refused: string }>>()
  const open = (address: string) => {
    const check = checkSource(address, origins)
    if (!check.ok) return Promise.resolve({ refused: check.reason })
    return openOriginal(check.source, {
      assets: options.assets,
      origins,
      timeoutMs: options.timeoutMs,
    }).then(async (result) => {
      if (result.ok) await result.original.body.cancel().catch(() => undefined)
      return result
    })
  }
  const gaps = await Promise.all(
    imageUsesOf(loads).map(async (use) => {
      if (!opened.has(use.address)) opened.set(use.address, open(use.address))
      return judgeOriginal(use, await opened.get(use.address)!)
    })
  )
  return gaps.filter((gap) => gap !== null)
}

/** A gap before its fix is written. */
type GapDraft = Omit<Gap, 'fix' | 'counted' | 'accepted'>

/** The gap an original gives as the route opened it, or null when the route shows it as it should. */
export function judgeOriginal(
  use: ImageUse,
  result: LoadResult | { refused: string }
): GapDraft | null {
  const gap = (kind: Gap['kind'], detail: string) => ({
    page: use.page,
    lng: '*' as const,
    kind,
    source: use.source,
    field: use.field,
    detail: `${use.address}: ${detail}`,
  })
  if ('refused' in result)
    return gap(
      'image-failed',
      `the image route refuses it: ${result.refused}: the bundled image is shown`
    )
  if (!result.ok)
    return gap('image-failed', `${result.reason} (${result.detail}): the bundled image is shown`)
  const { size, bytes } = result.original
  const widest = Math.max(...IMAGE_WIDTHS)
  if (size.width > OVERSIZED_FACTOR * widest)
    return gap(
      'image-oversized',
      `${size.width}×${size.height} px, ${bytes} bytes; the widest rendition is ${widest} px wide`
    )
  return null
}
