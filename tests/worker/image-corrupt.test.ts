/**
 * Corrupt originals on the CMS (src/images/image-answers.ts): an upload cut short, a file whose first
 * bytes are not its format's, a valid header over garbage. A source that cannot be transformed is a
 * source that cannot be served: the slot's bundled fallback when the page named one, else a 4xx
 * with a fixed reason; never a 5xx, whose blame would be the site's, for the CMS's bad file. Each
 * format the route reads, through the real local Images binding.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import type { RasterFormat } from '../../src/images/image-format'
import { readImageSize } from '../../src/images/image-header'
import { IMAGE_REASONS, type ImageReason } from '../../src/images/reasons'
import {
  ACCEPT,
  assetBytes,
  decodeBase64,
  fakeCms as cms,
  fetchImage,
  imageInfo,
  pageImageUrl,
  serveBytes,
} from '../support/worker/images'

/** Real transforms on a busy 2-core machine take seconds. */
const TRANSFORMS = { timeout: 60_000 }
const FALLBACK = '/default-banner.jpg'

const FORMATS = [
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['gif', 'image/gif'],
  ['webp', 'image/webp'],
  ['avif', 'image/avif'],
] as const satisfies readonly (readonly [keyof typeof env.TEST_IMAGES.samples, RasterFormat])[]

/** The shortest start of `bytes` whose header already tells the pixel size. */
function headerOf(bytes: Uint8Array, format: RasterFormat): Uint8Array {
  for (let length = 8; length <= bytes.length; length++) {
    if (readImageSize(bytes.subarray(0, length), format).state === 'read')
      return bytes.slice(0, length)
  }
  throw new Error(`${format}: no readable header`)
}

/** Bytes no decoder makes sense of, the same every run. */
function garbage(length: number): Uint8Array {
  const bytes = new Uint8Array(length)
  let seed = 12345
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    bytes[i] = seed >> 16
  }
  return bytes
}

/** `bytes`' readable header, then garbage to the original length. */
function headerOverGarbage(bytes: Uint8Array, format: RasterFormat): Uint8Array {
  const header = headerOf(bytes, format)
  const corrupt = new Uint8Array(bytes.length)
  corrupt.set(header)
  corrupt.set(garbage(bytes.length - header.length), header.length)
  return corrupt
}

function corruptions(bytes: Uint8Array, format: RasterFormat): [string, Uint8Array][] {
  const header = headerOf(bytes, format)
  const wrongMagic = bytes.slice()
  wrongMagic.set(new TextEncoder().encode('XXXX'))
  const cases: [string, Uint8Array][] = [
    ['cut off halfway (an interrupted upload)', bytes.slice(0, Math.floor(bytes.length / 2))],
    ['cut off just after its header', bytes.slice(0, header.length + 16)],
    ['with a wrong signature', wrongMagic],
  ]
  // libwebp turns whatever follows a valid VP8 frame header into pixels: see the test below.
  if (format !== 'image/webp')
    cases.push([
      `a valid header (${header.length} bytes) over garbage`,
      headerOverGarbage(bytes, format),
    ])
  return cases
}

describe.each(FORMATS)('a corrupt %s original', (name, format) => {
  const sample = decodeBase64(env.TEST_IMAGES.samples[name])

  it('is itself an image the route serves when whole', TRANSFORMS, async () => {
    const origin = cms({ [`whole.${name}`]: serveBytes(sample, format) })
    const { response, bytes } = await fetchImage(
      pageImageUrl(origin.url(`whole.${name}`), 320, FALLBACK),
      origin.bindings,
      ACCEPT.webp
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('X-Image-Outcome')).toBeNull()
    expect(await imageInfo(bytes)).toMatchObject({ format: 'image/webp', width: 320 })
  })

  it.each(corruptions(sample, format))(
    '%s: the slot gets its fallback, and a bare address a 4xx',
    TRANSFORMS,
    async (_, corrupt) => {
      const file = `corrupt.${name}`
      const origin = cms({ [file]: serveBytes(corrupt, format) })

      const withFallback = await fetchImage(
        pageImageUrl(origin.url(file), 640, FALLBACK),
        origin.bindings,
        ACCEPT.webp
      )
      expect(withFallback.response.status).toBe(200)
      expect(withFallback.response.headers.get('X-Image-Outcome')).toBe('fallback')
      const fallback = await imageInfo(await assetBytes(FALLBACK))
      expect(await imageInfo(withFallback.bytes)).toMatchObject({
        format: 'image/webp',
        width: Math.min(640, fallback.width),
      })

      const bare = await fetchImage(
        pageImageUrl(origin.url(file), 640),
        origin.bindings,
        ACCEPT.webp
      )
      expect(bare.response.status).toBeGreaterThanOrEqual(400)
      expect(bare.response.status).toBeLessThan(500)
      const reason = bare.response.headers.get('X-Image-Reason') as ImageReason
      expect(bare.text()).toBe(`${IMAGE_REASONS[reason]}\n`)
    }
  )
})

describe('a WebP whose valid header sits over garbage', () => {
  it(
    'is decoded by the binding as noise, so it is served as an image the binding made, never a 5xx',
    TRANSFORMS,
    async () => {
      const corrupt = headerOverGarbage(decodeBase64(env.TEST_IMAGES.samples.webp), 'image/webp')
      const origin = cms({ 'noise.webp': serveBytes(corrupt, 'image/webp') })
      const { response, bytes } = await fetchImage(
        pageImageUrl(origin.url('noise.webp'), 320, FALLBACK),
        origin.bindings,
        ACCEPT.webp
      )
      expect(response.status).toBe(200)
      expect(await imageInfo(bytes)).toMatchObject({ format: 'image/webp', width: 320 })
    }
  )
})

describe('the reason a damaged original gets', () => {
  it(
    "says the original is damaged, with 422, and keeps the decoder's own words out of the answer",
    TRANSFORMS,
    async () => {
      const sample = decodeBase64(env.TEST_IMAGES.samples.jpeg)
      const origin = cms({ 'cut.jpg': serveBytes(sample.slice(0, sample.length >> 1)) })
      const { response, text } = await fetchImage(
        pageImageUrl(origin.url('cut.jpg'), 640),
        origin.bindings
      )
      expect(response.status).toBe(422)
      expect(response.headers.get('X-Image-Reason')).toBe('undecodable')
      expect(response.headers.get('Cache-Control')).toBe('public, max-age=60')
      expect(text()).toBe(`${IMAGE_REASONS.undecodable}\n`)
    }
  )
})
