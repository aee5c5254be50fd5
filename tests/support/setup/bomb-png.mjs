/**
 * A decompression bomb for tests: a valid PNG whose header claims `width`×`height` pixels (60000²
 * is 3.6 gigapixels, over 10 GB decoded) in a few hundred bytes. Only its header is real: a decoder
 * that trusted it would allocate the whole canvas before finding the data short.
 */
import { crc32, deflateSync } from 'node:zlib'

export function bombPng(width, height) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, no interlace
  const data = deflateSync(Buffer.alloc(1024))
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    chunk('IHDR', header),
    chunk('IDAT', data),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function chunk(type, body) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(body.length)
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), body])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(typed))
  return Buffer.concat([length, typed, crc])
}
