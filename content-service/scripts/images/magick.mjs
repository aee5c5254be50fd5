/**
 * Runs ImageMagick (6 or 7) without a shell, and the small helpers every picture uses:
 * a seeded random source and MVG drawing arguments split under the kernel's 128 KB argv limit.
 */
import { spawnSync } from 'node:child_process'

let binary

/** The ImageMagick binary: $IMAGEMAGICK, `magick` (v7) or a `convert` that really is ImageMagick. */
function findMagick() {
  const candidates = [process.env.IMAGEMAGICK, 'magick', '/usr/bin/convert', 'convert'].filter(
    Boolean
  )
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ['-version'], { encoding: 'utf8' })
    if (probe.status === 0 && probe.stdout.includes('ImageMagick')) return candidate
  }
  throw new Error(
    'ImageMagick not found: apt-get install -y imagemagick, or set IMAGEMAGICK=/path/to/convert'
  )
}

/** Runs ImageMagick with the given arguments; throws with its stderr on failure. */
export function magick(args) {
  binary ??= findMagick()
  const result = spawnSync(binary, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) throw new Error(`${binary} failed: ${result.stderr || result.error}`)
}

/** `-draw` arguments for a list of MVG primitives, chunked so no single argument nears 128 KB. */
export function draw(primitives) {
  const args = []
  let chunk = ''
  for (const primitive of primitives) {
    if (chunk.length + primitive.length > 60_000) {
      args.push('-draw', chunk)
      chunk = ''
    }
    chunk += `${primitive}\n`
  }
  if (chunk) args.push('-draw', chunk)
  return args
}

/** Deterministic random numbers in [0, 1) (mulberry32), so regenerated images are identical. */
export function seeded(seed) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  next.between = (min, max) => min + next() * (max - min)
  next.int = (min, max) => Math.floor(next.between(min, max + 1))
  next.pick = (list) => list[Math.floor(next() * list.length)]
  return next
}

/** JPEG output: progressive, 4:2:0, no metadata. */
export function jpeg(quality = 72) {
  return ['-strip', '-interlace', 'Plane', '-sampling-factor', '4:2:0', '-quality', String(quality)]
}

/** PNG output: no metadata, best compression. */
export function png() {
  return ['-strip', '-define', 'png:compression-level=9']
}

/** Absolute font files, so the result does not depend on ImageMagick's font registry. */
export const FONTS = {
  gothic: '/usr/share/fonts/opentype/urw-base35/URWGothic-Demi.otf',
  gothicBook: '/usr/share/fonts/opentype/urw-base35/URWGothic-Book.otf',
  sansBold: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  serif: '/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf',
}

/** The site's palette: Yerevan tuff pinks and oranges, deep slate blue, cream. */
export const C = {
  slate900: '#1B2636',
  slate700: '#2A3C55',
  slate500: '#4A6385',
  slate300: '#90A4BE',
  tuff800: '#7E3B2A',
  tuff600: '#B25E40',
  tuff500: '#C8714F',
  tuff300: '#E2A283',
  tuff100: '#F4D6C3',
  cream: '#F7EFE3',
  cream2: '#E9D9C3',
  gold: '#F0BE6A',
  sage: '#7F9A7B',
  white: '#FFFFFF',
}
