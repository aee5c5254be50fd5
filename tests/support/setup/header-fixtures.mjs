/**
 * Images in every format the route's header readers know (src/images/image-header.ts), made with
 * sharp in Node when vitest.config.ts loads (workerd cannot run sharp), and a decompression bomb of
 * each: the same file with its header rewritten to claim far more pixels than the route takes,
 * where each format keeps its size (a few bytes; the pixel data stays small). The tests check every
 * file's size against `image-size`, an independent reader, so a bomb claims what it says it claims.
 * Made once per machine (about 2 s) and kept under .wrangler/test/, as the camera photos are.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

/** Bump when the fixtures change, so old files are not reused (sharp's version is part of the name too). */
const VERSION = 'v1'
const CACHE_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../.wrangler/test'
)

const WIDTH = 333
const HEIGHT = 222

/** A small photo-like picture: a gradient with an alpha channel where the format has one. */
function picture(alpha = false) {
  const channels = alpha ? 4 : 3
  const pixels = Buffer.alloc(WIDTH * HEIGHT * channels)
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const at = (y * WIDTH + x) * channels
      pixels.set([(x * 255) / WIDTH, (y * 255) / HEIGHT, ((x + y) * 3) % 256], at)
      if (alpha) pixels[at + 3] = x < WIDTH / 2 ? 255 : 128
    }
  }
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels } })
}

/** The fixtures as base64: `files` by name, a bomb of each under the same name in `bombs`, and the files' pixel size. */
export async function headerFixtures() {
  const file = path.join(CACHE_DIR, `header-fixtures-${VERSION}-sharp-${sharp.versions.sharp}.json`)
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'))
  const fixtures = await makeFixtures()
  mkdirSync(CACHE_DIR, { recursive: true })
  const partial = `${file}.${process.pid}.partial`
  writeFileSync(partial, JSON.stringify(fixtures))
  renameSync(partial, file)
  return fixtures
}

async function makeFixtures() {
  const files = {
    gif: await picture().gif().toBuffer(),
    webpLossy: await picture().webp({ quality: 70 }).toBuffer(),
    webpLossless: await picture().webp({ lossless: true }).toBuffer(),
    webpExtended: await picture(true).webp({ quality: 70 }).toBuffer(),
    avif: await picture().avif({ quality: 50, effort: 0 }).toBuffer(),
    jpegProgressive: await picture().jpeg({ progressive: true }).toBuffer(),
    jpegExifIcc: await picture()
      .withExif({
        IFD0: {
          Make: 'Erebuni test camera',
          Model: 'Header fixture',
          Copyright: 'x'.repeat(40_000),
        },
      })
      .withIccProfile('p3')
      .jpeg()
      .toBuffer(),
  }
  const bombs = {
    gif: gifScreen(files.gif, 65_535, 65_535),
    gifFrame: gifFrame(files.gif, 65_535, 65_535),
    webpLossy: webpLossy(files.webpLossy, 16_383, 16_383),
    webpLossless: webpLossless(files.webpLossless, 16_384, 16_384),
    webpExtended: webpCanvas(files.webpExtended, 16_384, 16_384),
    avif: avifExtent(files.avif, 65_535, 65_535),
    jpegProgressive: jpegFrame(files.jpegProgressive, 65_000, 65_000),
    jpegExifIcc: jpegFrame(files.jpegExifIcc, 65_000, 65_000),
  }
  const base64 = (record) =>
    Object.fromEntries(
      Object.entries(record).map(([name, bytes]) => [name, Buffer.from(bytes).toString('base64')])
    )
  return { files: base64(files), bombs: base64(bombs), size: { width: WIDTH, height: HEIGHT } }
}

/** A GIF whose logical screen claims `width`×`height`. */
function gifScreen(bytes, width, height) {
  const out = Buffer.from(bytes)
  out.writeUInt16LE(width, 6)
  out.writeUInt16LE(height, 8)
  return out
}

/**
 * A GIF whose logical screen is as made but whose first frame claims `width`×`height`: decoders
 * that grow the canvas to fit a frame (libnsgif, which libvips uses) would allocate that.
 */
function gifFrame(bytes, width, height) {
  const out = Buffer.from(bytes)
  const descriptor = firstGifImageDescriptor(out)
  out.writeUInt16LE(width, descriptor + 5)
  out.writeUInt16LE(height, descriptor + 7)
  return out
}

function firstGifImageDescriptor(bytes) {
  const packed = bytes[10]
  let offset = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0)
  while (bytes[offset] === 0x21) {
    offset += 2
    while (bytes[offset] !== 0) offset += bytes[offset] + 1
    offset += 1
  }
  if (bytes[offset] !== 0x2c) throw new Error('no image descriptor in the GIF fixture')
  return offset
}

/** A lossy WebP (simple format, VP8 chunk) whose key frame claims `width`×`height` (14 bits each). */
function webpLossy(bytes, width, height) {
  const out = Buffer.from(bytes)
  if (out.toString('latin1', 12, 16) !== 'VP8 ')
    throw new Error('the lossy WebP fixture is not a simple VP8 file')
  out.writeUInt16LE(width, 26)
  out.writeUInt16LE(height, 28)
  return out
}

/** A lossless WebP (VP8L chunk) whose header claims `width`×`height` (14 bits each, minus one). */
function webpLossless(bytes, width, height) {
  const out = Buffer.from(bytes)
  if (out.toString('latin1', 12, 16) !== 'VP8L')
    throw new Error('the lossless WebP fixture is not a VP8L file')
  const bits = out.readUInt32LE(21)
  out.writeUInt32LE(((bits & ~0x0fffffff) | ((height - 1) << 14) | (width - 1)) >>> 0, 21)
  return out
}

/** An extended WebP (VP8X chunk) whose canvas claims `width`×`height`. */
function webpCanvas(bytes, width, height) {
  const out = Buffer.from(bytes)
  if (out.toString('latin1', 12, 16) !== 'VP8X')
    throw new Error('the extended WebP fixture has no VP8X chunk')
  out.writeUIntLE(width - 1, 24, 3)
  out.writeUIntLE(height - 1, 27, 3)
  return out
}

/** An AVIF whose every `ispe` (image spatial extent) property claims `width`×`height`. */
function avifExtent(bytes, width, height) {
  const out = Buffer.from(bytes)
  let found = 0
  for (let at = out.indexOf('ispe'); at !== -1; at = out.indexOf('ispe', at + 4)) {
    out.writeUInt32BE(width, at + 8) // after the type: 4 bytes of version and flags
    out.writeUInt32BE(height, at + 12)
    found++
  }
  if (found === 0) throw new Error('no ispe property in the AVIF fixture')
  return out
}

/** A JPEG whose start-of-frame (baseline or progressive) claims `width`×`height`. */
function jpegFrame(bytes, width, height) {
  const out = Buffer.from(bytes)
  let offset = 2
  while (offset + 4 <= out.length) {
    const marker = out[offset + 1]
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      out.writeUInt16BE(height, offset + 5)
      out.writeUInt16BE(width, offset + 7)
      return out
    }
    offset += 2 + out.readUInt16BE(offset + 2)
  }
  throw new Error('no start-of-frame in the JPEG fixture')
}
