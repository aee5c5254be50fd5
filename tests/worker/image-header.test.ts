/**
 * The header readers that enforce the pixel limits before anything is decoded
 * (src/images/image-header.ts): every format the route takes, checked against `image-size`, an
 * independent reader, and a decompression bomb of each refused by GET /_image before any transform.
 * The files are made with sharp when the config loads (tests/support/setup/header-fixtures.mjs).
 */
import { env } from 'cloudflare:workers'
import { imageSize } from 'image-size'
import { describe, expect, it, vi } from 'vitest'
import type { Bindings } from '../../src/env'
import { sniffFormat, type RasterFormat } from '../../src/images/image-format'
import { readImageSize } from '../../src/images/image-header'
import { MAX_PIXELS, MAX_SIDE } from '../../src/images/limits'
import { IMAGE_REASONS } from '../../src/images/reasons'
import {
  ACCEPT,
  decodeBase64,
  fakeCms as cms,
  fetchImage,
  imageInfo,
  pageImageUrl,
  serveBytes,
} from '../support/worker/images'

const fixtures = env.TEST_HEADER_FIXTURES
const files = Object.entries(fixtures.files).map(
  ([name, base64]) => [name, decodeBase64(base64)] as const
)
const bombs = Object.entries(fixtures.bombs).map(
  ([name, base64]) => [name, decodeBase64(base64)] as const
)
const TRANSFORMS = { timeout: 30_000 }

function rasterFormat(bytes: Uint8Array): RasterFormat {
  const format = sniffFormat(bytes)
  if (!format || format === 'image/svg+xml') throw new Error(`not a raster image: ${format}`)
  return format
}

/** The Images binding, counting the transforms it is asked for. */
function countingImages() {
  const input = vi.fn((stream: ReadableStream<Uint8Array>) => env.IMAGES.input(stream))
  return {
    binding: {
      info: (stream: ReadableStream<Uint8Array>) => env.IMAGES.info(stream),
      input,
    } as unknown as ImagesBinding,
    input,
  }
}

describe('the header readers agree with image-size', () => {
  it.each(files)('%s: the size image-size reads', (_, bytes) => {
    const oracle = imageSize(bytes)
    expect({ width: oracle.width, height: oracle.height }).toEqual(fixtures.size)
    expect(readImageSize(bytes, rasterFormat(bytes))).toEqual({
      state: 'read',
      size: fixtures.size,
    })
  })

  it.each(files)(
    '%s: a file cut short asks for more bytes, never reads a wrong size',
    (_, bytes) => {
      const format = rasterFormat(bytes)
      let first = -1
      for (let length = 0; length <= bytes.length; length++) {
        const read = readImageSize(bytes.subarray(0, length), format)
        if (read.state === 'read') {
          expect(read.size, `${length} bytes`).toEqual(fixtures.size)
          if (first === -1) first = length
        } else {
          expect(read.state, `${length} bytes`).toBe(first === -1 ? 'more' : 'read')
        }
      }
      expect(first).toBeGreaterThan(0)
    }
  )

  it.each(bombs.filter(([name]) => name !== 'gifFrame'))(
    '%s bomb: the size image-size reads',
    (_, bytes) => {
      const { width, height } = imageSize(bytes)
      expect(width * height).toBeGreaterThan(MAX_PIXELS)
      expect(readImageSize(bytes, rasterFormat(bytes))).toEqual({
        state: 'read',
        size: { width, height },
      })
    }
  )

  it('a GIF whose first frame is larger than its screen: the frame counts, as decoders grow the canvas to fit it', () => {
    const bytes = decodeBase64(fixtures.bombs.gifFrame)
    // image-size reads the logical screen only; libvips' gifload refuses this file for its frame.
    expect(imageSize(bytes)).toMatchObject(fixtures.size)
    expect(readImageSize(bytes, 'image/gif')).toEqual({
      state: 'read',
      size: { width: 65_535, height: 65_535 },
    })
  })
})

describe('GET /_image: every format', TRANSFORMS, () => {
  it.each(files)('%s is served at the width asked for', async (name, bytes) => {
    const origin = cms({ [name]: serveBytes(bytes, rasterFormat(bytes)) })
    const { response, bytes: body } = await fetchImage(
      pageImageUrl(origin.url(name), 320),
      origin.bindings,
      ACCEPT.webp
    )
    expect(response.status).toBe(200)
    expect(await imageInfo(body)).toMatchObject({ format: 'image/webp', width: 320 })
  })

  it.each(bombs)(
    'the %s bomb is refused for its pixels before any transform',
    async (name, bytes) => {
      const origin = cms({ [name]: serveBytes(bytes, rasterFormat(bytes)) })
      const images = countingImages()
      const bindings: Bindings = { ...origin.bindings, IMAGES: images.binding }
      const { response, text } = await fetchImage(pageImageUrl(origin.url(name), 640), bindings)
      expect(response.status).toBe(422)
      expect(response.headers.get('X-Image-Reason')).toBe('too-many-pixels')
      expect(text()).toBe(`${IMAGE_REASONS['too-many-pixels']}\n`)
      expect(images.input).not.toHaveBeenCalled()
    }
  )

  it(`refuses a side over ${MAX_SIDE} px even under ${MAX_PIXELS / 1e6} MP`, async () => {
    const bytes = decodeBase64(fixtures.files.webpExtended).slice()
    // An extended WebP's canvas: 20000×100 px (2 MP).
    bytes.set([0x1f, 0x4e, 0x00], 24)
    bytes.set([0x63, 0x00, 0x00], 27)
    expect(imageSize(bytes)).toMatchObject({ width: 20_000, height: 100 })
    const origin = cms({ 'wide.webp': serveBytes(bytes, 'image/webp') })
    const images = countingImages()
    const { response } = await fetchImage(pageImageUrl(origin.url('wide.webp'), 640), {
      ...origin.bindings,
      IMAGES: images.binding,
    })
    expect(response.headers.get('X-Image-Reason')).toBe('too-many-pixels')
    expect(images.input).not.toHaveBeenCalled()
  })
})
