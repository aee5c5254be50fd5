// @ts-check
/**
 * One small photo-like image in each raster format the image route reads (JPEG, PNG, GIF, WebP,
 * AVIF), made with sharp in Node for the worker tests (workerd cannot run sharp): the material the
 * corrupt-original tests cut short, relabel and fill with garbage.
 */
import sharp from 'sharp'

const WIDTH = 480
const HEIGHT = 360

/** @returns {Promise<Record<'jpeg' | 'png' | 'gif' | 'webp' | 'avif', Buffer>>} */
export async function formatSamples() {
  // Noise, so every encoder writes a body of some kilobytes after its header.
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3)
  let seed = 7
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    pixels[i] = (i % 3) * 60 + ((seed >> 16) % 80)
  }
  const image = () => sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
  return {
    jpeg: await image().jpeg({ quality: 80 }).toBuffer(),
    png: await image().png().toBuffer(),
    gif: await image().gif().toBuffer(),
    webp: await image().webp({ quality: 80 }).toBuffer(),
    avif: await image().avif({ quality: 50 }).toBuffer(),
  }
}

/**
 * A 96×72 JPEG of smooth gradients: a photo for tests that count transforms rather than read
 * pixels (tests/worker/image-warm.test.ts), which every encoder turns out in milliseconds where
 * the noisy samples above take seconds each on a busy machine.
 * @returns {Promise<Buffer>}
 */
export async function smallPhoto() {
  const width = 96
  const height = 72
  const pixels = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3
      pixels[at] = Math.round((x / width) * 255)
      pixels[at + 1] = Math.round((y / height) * 255)
      pixels[at + 2] = 128
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer()
}
