/**
 * Image formats by their first bytes, not by the origin's Content-Type (a CMS may label a JPEG
 * `application/octet-stream`, or an HTML error page `image/jpeg`), and the output format a
 * browser's Accept header allows.
 */

export type RasterFormat = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'image/avif'
export type SniffedFormat = RasterFormat | 'image/svg+xml'

/** The format of `bytes`, or null when they are not an image the route knows. */
export function sniffFormat(bytes: Uint8Array): SniffedFormat | null {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end))
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png'
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif'
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp'
  if (ascii(4, 8) === 'ftyp' && /^avi[fs]$/.test(ascii(8, 12))) return 'image/avif'
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart()
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head))
    return 'image/svg+xml'
  return null
}

/**
 * AVIF when the browser accepts it, else WebP, else the source's own format. A GIF becomes a PNG
 * still (the binding does not encode GIF everywhere, and content photos are not animations); an
 * AVIF or WebP source for a browser that takes neither becomes a JPEG, which every browser shows.
 */
export function negotiateFormat(accept: string | undefined, source: RasterFormat): RasterFormat {
  const types = (accept ?? '').toLowerCase()
  if (/\bimage\/avif\b/.test(types)) return 'image/avif'
  if (/\bimage\/webp\b/.test(types)) return 'image/webp'
  if (source === 'image/gif') return 'image/png'
  return source === 'image/avif' || source === 'image/webp' ? 'image/jpeg' : source
}
