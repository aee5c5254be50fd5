/**
 * Camera photos made at run time, so that tests and the benchmark meet what a CMS serves (large,
 * detailed JPEGs straight from a phone or camera) without downloading or committing any: a scene
 * of gradients and shapes (sky, buildings, sun) covered in sensor-like noise, which makes each
 * 4000×3000 JPEG 2–6 MB, as a real photo is. Each photo is deterministic (seeded by its name) and
 * kept under .wrangler/camera-uploads/, so a machine generates it once.
 *
 *   import { cameraPhoto } from './scripts/lib/camera-uploads/photos.mjs'
 *   const jpeg = await cameraPhoto('home-hero-1', { width: 4000, height: 3000 })  // Buffer
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
/** Where generated photos are kept between runs (ignored by git with the rest of .wrangler/). */
export const PHOTO_DIR = path.join(ROOT, '.wrangler/camera-uploads')
/** Bump when the generator changes, so old files are not reused. */
const VERSION = 'v2'
/** Grain values drawn per photo (a prime, so the table's period never lines up with a row). */
const GRAIN_TABLE_LENGTH = 1_048_573

/**
 * @typedef {object} PhotoOptions
 * @property {number} [width]   pixels, default 4000
 * @property {number} [height]  pixels, default 3000
 * @property {number} [noise]   sensor noise amplitude (0–255), default 16 (about 3 MB at 4000×3000): more noise, more bytes
 * @property {number} [quality] JPEG quality, default 88
 * @property {'jpeg' | 'png'} [format] default 'jpeg'
 */

/** The photo's file path, generated first if this machine has not made it yet. */
export async function cameraPhotoPath(name, options = {}) {
  const { width = 4000, height = 3000, noise = 16, quality = 88, format = 'jpeg' } = options
  const file = path.join(
    PHOTO_DIR,
    `${VERSION}-${safeName(name)}-${width}x${height}-n${noise}-q${quality}.${format === 'png' ? 'png' : 'jpg'}`
  )
  if (existsSync(file)) return file
  mkdirSync(PHOTO_DIR, { recursive: true })
  const bytes = await renderPhoto(name, { width, height, noise, quality, format })
  const partial = `${file}.${process.pid}.partial`
  writeFileSync(partial, bytes)
  renameSync(partial, file)
  return file
}

/** The photo's bytes (see cameraPhotoPath). */
export async function cameraPhoto(name, options = {}) {
  return readFileSync(await cameraPhotoPath(name, options))
}

async function renderPhoto(name, { width, height, noise, quality, format }) {
  const random = seededRandom(name)
  const scene = Buffer.from(sceneSvg(width, height, random))
  const { data, info } = await sharp(scene, { limitInputPixels: false })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  // Grain from a table of a prime length, drawn once per photo: as irregular as drawing each
  // pixel's own (no pattern lines up with rows), at a fraction of the time.
  const grain = new Int16Array(GRAIN_TABLE_LENGTH)
  for (let i = 0; i < grain.length; i++) grain[i] = Math.round((random() + random() - 1) * noise)
  for (let i = 0, g = 0; i < data.length; i++, g = g + 1 === grain.length ? 0 : g + 1) {
    const value = data[i] + grain[g]
    data[i] = value < 0 ? 0 : value > 255 ? 255 : value
  }
  const image = sharp(data, {
    raw: { width: info.width, height: info.height, channels: info.channels },
  })
  return format === 'png'
    ? image.png({ compressionLevel: 6 }).toBuffer()
    : image.jpeg({ quality, chromaSubsampling: '4:4:4' }).toBuffer()
}

/** Sky and ground gradients, a sun, a skyline of buildings with windows: colour and edges to encode. */
function sceneSvg(width, height, random) {
  const hue = Math.floor(random() * 360)
  const horizon = height * (0.55 + random() * 0.15)
  const shapes = []
  shapes.push(
    `<circle cx="${random() * width}" cy="${horizon * (0.2 + random() * 0.4)}" r="${height * (0.05 + random() * 0.08)}" fill="hsl(${(hue + 40) % 360},90%,75%)"/>`
  )
  let x = -random() * 200
  while (x < width) {
    const w = width * (0.04 + random() * 0.09)
    const h = horizon * (0.15 + random() * 0.6)
    const top = horizon - h
    shapes.push(
      `<rect x="${x}" y="${top}" width="${w}" height="${h + 4}" fill="hsl(${(hue + 180 + random() * 60) % 360},${20 + random() * 40}%,${25 + random() * 40}%)"/>`
    )
    for (let wy = top + 20; wy < horizon - 30; wy += 40 + random() * 20) {
      for (let wx = x + 12; wx < x + w - 24; wx += 30 + random() * 10) {
        if (random() < 0.6)
          shapes.push(
            `<rect x="${wx}" y="${wy}" width="14" height="20" fill="hsl(${(hue + 50) % 360},70%,${50 + random() * 40}%)"/>`
          )
      }
    }
    x += w + random() * 30
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs>
<linearGradient id="sky" x1="0" y1="0" x2="0.3" y2="1"><stop offset="0" stop-color="hsl(${hue},60%,35%)"/><stop offset="1" stop-color="hsl(${(hue + 30) % 360},70%,80%)"/></linearGradient>
<linearGradient id="ground" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${(hue + 90) % 360},35%,35%)"/><stop offset="1" stop-color="hsl(${(hue + 120) % 360},45%,18%)"/></linearGradient>
</defs>
<rect width="${width}" height="${horizon}" fill="url(#sky)"/>
<rect y="${horizon}" width="${width}" height="${height - horizon}" fill="url(#ground)"/>
${shapes.join('\n')}
</svg>`
}

/** xorshift32 seeded by the name: the same name always gives the same photo. */
function seededRandom(name) {
  let state = 2166136261
  for (const char of name) state = Math.imul(state ^ char.charCodeAt(0), 16777619) >>> 0
  state ||= 1
  return () => {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state / 4294967296
  }
}

function safeName(name) {
  return name.replace(/[^a-z0-9-]+/gi, '-').replace(/^-|-$/g, '') || 'photo'
}
