/**
 * An original's pixel size read from its first bytes, without decoding it: the route checks the
 * pixel limits on the header while the rest of the file is still on its way, then streams the whole
 * file into the Images binding (./transform.ts). One header read here replaces a billed
 * `IMAGES.info` call per miss and keeps a decompression bomb away from the transformer.
 *
 * Each reader answers `more` while the bytes so far end before the size (a JPEG's EXIF and ICC
 * segments come first and may be long), and `unreadable` for a header that is not what the format
 * says.
 */
import type { RasterFormat } from './image-format'

export type Dimensions = { width: number; height: number }
export type HeaderRead =
  { state: 'read'; size: Dimensions } | { state: 'more' } | { state: 'unreadable' }

const MORE: HeaderRead = { state: 'more' }
const UNREADABLE: HeaderRead = { state: 'unreadable' }

/** The pixel size in `bytes` (an original's first bytes) of an image sniffed as `format`. */
export function readImageSize(bytes: Uint8Array, format: RasterFormat): HeaderRead {
  switch (format) {
    case 'image/png':
      return bytes.length < 24 ? MORE : sized(u32be(bytes, 16), u32be(bytes, 20))
    case 'image/gif':
      return gifSize(bytes)
    case 'image/jpeg':
      return jpegSize(bytes)
    case 'image/webp':
      return webpSize(bytes)
    case 'image/avif':
      return avifSize(bytes)
  }
}

function sized(width: number, height: number): HeaderRead {
  return width > 0 && height > 0 ? { state: 'read', size: { width, height } } : UNREADABLE
}

/**
 * The logical screen, grown to fit the first frame: decoders that meet a frame larger than the
 * screen enlarge the canvas to hold it (libnsgif, which libvips uses), so a 1×1 screen with a
 * 65535×65535 frame is a bomb all the same. Extension blocks before the frame are skipped.
 */
function gifSize(bytes: Uint8Array): HeaderRead {
  if (bytes.length < 13) return MORE
  const packed = bytes[10]!
  let offset = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0) // global colour table
  while (true) {
    if (offset >= bytes.length) return MORE
    const block = bytes[offset]!
    if (block === 0x2c) {
      if (offset + 9 > bytes.length) return MORE
      const right = u16le(bytes, offset + 1) + u16le(bytes, offset + 5)
      const bottom = u16le(bytes, offset + 3) + u16le(bytes, offset + 7)
      return sized(Math.max(u16le(bytes, 6), right), Math.max(u16le(bytes, 8), bottom))
    }
    if (block !== 0x21) return UNREADABLE // the trailer, or not a block at all, before any frame
    offset += 2 // introducer and label, then data sub-blocks up to an empty one
    while (true) {
      if (offset >= bytes.length) return MORE
      const size = bytes[offset]!
      offset += 1 + size
      if (size === 0) break
    }
  }
}

/** Walks the markers to the first start-of-frame (SOF0–SOF15 but DHT, JPG and DAC). */
function jpegSize(bytes: Uint8Array): HeaderRead {
  let offset = 2
  while (true) {
    if (offset + 4 > bytes.length) return MORE
    if (bytes[offset] !== 0xff) return UNREADABLE
    const marker = bytes[offset + 1]!
    if (marker === 0xff) {
      offset += 1 // fill byte
      continue
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2 // markers without a length
      continue
    }
    if (marker === 0xd9 || marker === 0xda) return UNREADABLE // end of image, or scan data before any frame
    const length = u16be(bytes, offset + 2)
    if (length < 2) return UNREADABLE
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (offset + 9 > bytes.length) return MORE
      return sized(u16be(bytes, offset + 7), u16be(bytes, offset + 5))
    }
    offset += 2 + length
  }
}

/** The VP8, VP8L or VP8X chunk that follows the RIFF header. */
function webpSize(bytes: Uint8Array): HeaderRead {
  if (bytes.length < 30) return MORE
  const chunk = ascii(bytes, 12, 16)
  if (chunk === 'VP8X') return sized(1 + u24le(bytes, 24), 1 + u24le(bytes, 27))
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return UNREADABLE
    const bits = (bytes[21]! | (bytes[22]! << 8) | (bytes[23]! << 16) | (bytes[24]! << 24)) >>> 0
    return sized(1 + (bits & 0x3fff), 1 + ((bits >>> 14) & 0x3fff))
  }
  if (chunk === 'VP8 ') {
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return UNREADABLE
    return sized(u16le(bytes, 26) & 0x3fff, u16le(bytes, 28) & 0x3fff)
  }
  return UNREADABLE
}

/**
 * The largest `ispe` (image spatial extent) property in meta > iprp > ipco: the primary image's
 * size (grid tiles and thumbnails are smaller).
 */
function avifSize(bytes: Uint8Array): HeaderRead {
  const meta = findBox(bytes, 0, Infinity, 'meta') // top level: the file goes on past the bytes so far
  if (meta === 'more' || meta === null) return meta === 'more' ? MORE : UNREADABLE
  const iprp = findBox(bytes, meta.start + 4, meta.end, 'iprp') // meta is a full box: 4 bytes of version and flags
  if (iprp === 'more' || iprp === null) return iprp === 'more' ? MORE : UNREADABLE
  const ipco = findBox(bytes, iprp.start, iprp.end, 'ipco')
  if (ipco === 'more' || ipco === null) return ipco === 'more' ? MORE : UNREADABLE
  let width = 0
  let height = 0
  for (let offset = ipco.start; offset + 8 <= ipco.end;) {
    const size = u32be(bytes, offset)
    if (size < 8) return UNREADABLE
    if (ascii(bytes, offset + 4, offset + 8) === 'ispe' && offset + 20 <= bytes.length) {
      width = Math.max(width, u32be(bytes, offset + 12))
      height = Math.max(height, u32be(bytes, offset + 16))
    }
    offset += size
  }
  return sized(width, height)
}

type Box = { start: number; end: number }

/** The first box of `type` among the boxes in [from, to); 'more' when the bytes end first (also between boxes). */
function findBox(bytes: Uint8Array, from: number, to: number, type: string): Box | 'more' | null {
  for (let offset = from; offset < to;) {
    if (offset + 8 > bytes.length) return 'more'
    const size = u32be(bytes, offset)
    if (size < 8) return null // 0 (to the end of the file) and 1 (64-bit size) do not occur before the properties
    const end = offset + size
    if (ascii(bytes, offset + 4, offset + 8) === type)
      return end > bytes.length ? 'more' : { start: offset + 8, end }
    offset = end
  }
  return null
}

function u16be(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 8) | bytes[at + 1]!
}
function u16le(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8)
}
function u24le(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)
}
function u32be(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0
  )
}
function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end))
}
