/**
 * src/images/image-format.ts: what the route takes an original to be (by its bytes, never by the
 * origin's label) and which format each browser gets.
 */
import { describe, expect, it } from 'vitest'
import { negotiateFormat, sniffFormat, type RasterFormat } from '../../src/images/image-format'

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((part) =>
      typeof part === 'string' ? [...part].map((char) => char.charCodeAt(0)) : part
    )
  )

describe('sniffFormat', () => {
  it.each([
    ['a JPEG', bytes([0xff, 0xd8, 0xff, 0xe1], 'Exif'), 'image/jpeg'],
    ['a PNG', bytes('\x89PNG\r\n\x1a\n', [0, 0, 0, 13]), 'image/png'],
    ['a GIF', bytes('GIF89a', [1, 0, 1, 0]), 'image/gif'],
    ['a WebP', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
    ['an AVIF', bytes([0, 0, 0, 32], 'ftypavif'), 'image/avif'],
    [
      'an SVG',
      bytes('<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg">'),
      'image/svg+xml',
    ],
    ['an HTML error page', bytes('<!doctype html><title>502</title>'), null],
    ['JSON', bytes('{"message":"not found"}'), null],
    ['nothing', bytes(), null],
  ])('reads %s', (_, input, format) => {
    expect(sniffFormat(input)).toBe(format)
  })
})

describe('negotiateFormat', () => {
  const chromium = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'
  const oldSafari = 'image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5'
  it.each<[string, string | undefined, RasterFormat, RasterFormat]>([
    ['AVIF to Chromium', chromium, 'image/jpeg', 'image/avif'],
    ['WebP to a browser without AVIF', oldSafari, 'image/png', 'image/webp'],
    ['a JPEG as JPEG to a client that names neither', '*/*', 'image/jpeg', 'image/jpeg'],
    ['a PNG as PNG without an Accept header', undefined, 'image/png', 'image/png'],
    ['a GIF as a PNG still', '*/*', 'image/gif', 'image/png'],
    [
      'an AVIF as JPEG to a client that takes neither AVIF nor WebP',
      'image/jpeg,image/png',
      'image/avif',
      'image/jpeg',
    ],
    ['a WebP as JPEG to a client that takes neither', '*/*', 'image/webp', 'image/jpeg'],
  ])('gives %s', (_, accept, source, format) => {
    expect(negotiateFormat(accept, source)).toBe(format)
  })
})
