/**
 * GET /_image cannot be turned into a bill or a memory bomb (docs/decisions/0013 and 0014):
 * only addresses the site's pages write are served, any respelling costs neither a download nor a
 * transform, misses are rate limited per client, transforms per isolate are capped, and a transform
 * that outlasts the visitor's wait finishes in the background and is cached.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Bindings } from '../../src/env'
import { imageUrl } from '../../src/images/image-url'
import { DEV_IMAGE_URL_SECRET } from '../../src/images/image-signature'
import { MAX_TRANSFORM_BYTES_AT_ONCE, MAX_TRANSFORMS_AT_ONCE } from '../../src/images/limits'
import { READ_CHUNK_BYTES } from '../../src/images/chunk-reader'
import {
  ACCEPT,
  assetBytes,
  decodeBase64,
  fakeCms as cms,
  digestOf,
  fetchImage,
  pageImageUrl,
  serveBytes,
} from '../support/worker/images'

const cameraJpeg = decodeBase64(env.TEST_IMAGES.cameraJpeg)
const HERO = '/images/banners/home-hero-1.jpg'
const BANNER_FALLBACK = '/default-banner.jpg'
const SLOW = { timeout: 90_000 }
/** How long a held transform waits for others to run beside it. */
const HOLD_DEADLINE_MS = 5_000

afterEach(() => {
  vi.restoreAllMocks()
})

/**
 * The real local binding, counting the transforms it is asked for, how many run at once and the
 * size of each read of its input; `delayMs` holds each output back.
 */
/**
 * An Images binding that counts its transforms and holds each one `delayMs`, or, with `together`,
 * until that many have run at once (at most HOLD_DEADLINE_MS): a wait for a condition, so that
 * how fast a busy machine starts the requests cannot decide whether two transforms overlap.
 */
function countingImages(delayMs = 0, together = 0) {
  const counts = { transforms: 0, running: 0, mostAtOnce: 0, reads: [] as number[] }
  const binding = {
    info: (stream: ReadableStream<Uint8Array>) => env.IMAGES.info(stream),
    input(stream: ReadableStream<Uint8Array>) {
      counts.transforms++
      let options: ImageTransform = {}
      const chain = {
        transform(next: ImageTransform) {
          options = next
          return chain
        },
        async output(output: ImageOutputOptions) {
          counts.running++
          counts.mostAtOnce = Math.max(counts.mostAtOnce, counts.running)
          try {
            const chunks: Uint8Array[] = []
            for await (const chunk of stream) chunks.push(chunk)
            counts.reads.push(...chunks.map((chunk) => chunk.byteLength))
            if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs))
            for (
              const deadline = Date.now() + HOLD_DEADLINE_MS;
              together && counts.mostAtOnce < together && Date.now() < deadline;
            )
              await new Promise((resolve) => setTimeout(resolve, 10))
            return await env.IMAGES.input(new Blob(chunks).stream())
              .transform(options)
              .output(output)
          } finally {
            counts.running--
          }
        },
      }
      return chain
    },
  } as unknown as ImagesBinding
  return { binding, counts }
}

/** A limiter that answers `success` and records the keys it was asked about. */
function limiter(success: boolean) {
  const keys: string[] = []
  return {
    keys,
    binding: {
      limit: async ({ key }: { key: string }) => (keys.push(key), { success }),
    } as unknown as RateLimit,
  }
}

describe('GET /_image: only the addresses the pages write', SLOW, () => {
  const respellings = (src: string, width: number): [string, string][] => {
    const page = pageImageUrl(src, width)
    const query = page.slice(page.indexOf('?') + 1)
    const signature = new URLSearchParams(query).get('s')!
    return [
      ['an extra parameter', `${page}&cb=1`],
      ['a cache-buster before the others', `/_image?cb=1&${query}`],
      [
        'parameters in another order',
        `/_image?w=${width}&src=${encodeURIComponent(src)}&s=${signature}`,
      ],
      ['a parameter twice', `${page}&w=${width}`],
      ['an upper-case parameter name', page.replace('&w=', '&W=')],
      [
        'lower-case percent-encoding',
        page.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
      ],
      [
        'a source with an encoded slash',
        page.replace(encodeURIComponent(src), encodeURIComponent(src).replace(/%2F/g, '%252F')),
      ],
      [
        'a source with a dot segment',
        `/_image?src=${encodeURIComponent(src.replace('/', '/./'))}&w=${width}&s=${signature}`,
      ],
      [
        'a source with a doubled slash',
        `/_image?src=${encodeURIComponent(src.replace('/', '//'))}&w=${width}&s=${signature}`,
      ],
      [
        'a source with a query',
        `/_image?src=${encodeURIComponent(`${src}?cb=1`)}&w=${width}&s=${signature}`,
      ],
      [
        'a source in another case',
        `/_image?src=${encodeURIComponent(src.toUpperCase())}&w=${width}&s=${signature}`,
      ],
      [
        'a width off the ladder under the same signature',
        `/_image?src=${encodeURIComponent(src)}&w=${width + 1}&s=${signature}`,
      ],
      [
        "a social card's size under a ladder signature",
        `/_image?src=${encodeURIComponent(src)}&w=1200&h=630&s=${signature}`,
      ],
      ['no signature', `/_image?src=${encodeURIComponent(src)}&w=${width}`],
      [
        'a signature in another case',
        page.replace(
          `s=${signature}`,
          `s=${signature.toUpperCase() === signature ? signature.toLowerCase() : signature.toUpperCase()}`
        ),
      ],
      [
        'an added fallback',
        `/_image?src=${encodeURIComponent(src)}&w=${width}&fallback=${encodeURIComponent(BANNER_FALLBACK)}&s=${signature}`,
      ],
    ]
  }

  it('serves a CMS photo once, then refuses every respelling of its address without a download or a transform', async () => {
    const origin = cms({ 'photo.jpg': serveBytes(cameraJpeg) })
    const images = countingImages()
    const bindings = { ...origin.bindings, IMAGES: images.binding }
    const src = origin.url('photo.jpg')
    expect((await fetchImage(pageImageUrl(src, 640), bindings, ACCEPT.webp)).response.status).toBe(
      200
    )
    for (const [what, path] of respellings(src, 640)) {
      const { response } = await fetchImage(path, bindings, ACCEPT.webp)
      expect([400, 403], what).toContain(response.status)
      expect(['missing-src', 'width-not-served', 'not-canonical', 'not-signed'], what).toContain(
        response.headers.get('X-Image-Reason')
      )
    }
    expect(origin.calls).toHaveLength(1)
    expect(images.counts.transforms).toBe(1)
  })

  it('refuses every respelling of a bundled image without reading or transforming it', async () => {
    const images = countingImages()
    const assets = {
      fetch: vi.fn((request: Request) => env.ASSETS.fetch(request)),
    } as unknown as Fetcher
    const bindings = { ...(env as unknown as Bindings), IMAGES: images.binding, ASSETS: assets }
    for (const [what, path] of respellings(HERO, 480)) {
      const { response } = await fetchImage(path, bindings)
      expect([400, 403], what).toContain(response.status)
    }
    expect(images.counts.transforms).toBe(0)
    expect(vi.mocked(assets.fetch)).not.toHaveBeenCalled()
  })

  it("signs a source once for the whole ladder: its srcset repeats one signature, and another source's does not open it", async () => {
    const signatureOf = (url: string) => new URL(url, 'https://site.test').searchParams.get('s')
    const ladder = [320, 480, 640, 768].map((width) => pageImageUrl(HERO, width))
    expect(new Set(ladder.map(signatureOf)).size).toBe(1)
    for (const url of ladder) expect((await fetchImage(url, env)).response.status, url).toBe(200)
    const otherSource = pageImageUrl('/images/banners/home-hero-2.jpg', 320)
    const borrowed = ladder[0]!.replace(/s=[^&]+$/, `s=${signatureOf(otherSource)}`)
    const { response } = await fetchImage(borrowed, env)
    expect(response.status).toBe(403)
    expect(response.headers.get('X-Image-Reason')).toBe('not-signed')
  })

  it('refuses an address signed with another key, and accepts the previous key during a rotation', async () => {
    const signedWith = (secret: string) => imageUrl(HERO, 320, undefined, secret)
    const rotated = {
      ...(env as unknown as Bindings),
      IMAGE_URL_SECRET: 'new-key',
      IMAGE_URL_SECRET_PREVIOUS: DEV_IMAGE_URL_SECRET,
    }
    expect((await fetchImage(signedWith('someone-else'), env)).response.status).toBe(403)
    expect((await fetchImage(signedWith('new-key'), rotated)).response.status).toBe(200)
    expect((await fetchImage(signedWith(DEV_IMAGE_URL_SECRET), rotated)).response.status).toBe(200)
    expect(
      (
        await fetchImage(signedWith(DEV_IMAGE_URL_SECRET), {
          ...rotated,
          IMAGE_URL_SECRET_PREVIOUS: undefined,
        })
      ).response.status
    ).toBe(403)
  })

  it.each([
    ['a dot segment and a host', '/.//127.0.0.1:8914/default-banner.jpg'],
    ['a doubled slash', '/images//banners/home-hero-1.jpg'],
    ['an encoded slash', '/images%2fbanners/home-hero-1.jpg'],
    ['a parent segment', '/images/banners/../banners/home-hero-1.jpg'],
    ['a query', '/images/banners/home-hero-1.jpg?cb=1'],
  ])(
    'refuses a site path with %s even when signed: site paths are canonical or refused',
    async (_, src) => {
      const images = countingImages()
      const { response } = await fetchImage(pageImageUrl(src, 320), {
        ...(env as unknown as Bindings),
        IMAGES: images.binding,
      })
      expect(response.status).toBe(403)
      expect(response.headers.get('X-Image-Reason')).toBe('source-refused')
      expect(images.counts.transforms).toBe(0)
    }
  )
})

describe('GET /_image: misses are rate limited per client', SLOW, () => {
  it('answers a miss beyond the limit with 429 and Retry-After, before any download or transform', async () => {
    const origin = cms({ 'photo.jpg': serveBytes(cameraJpeg) })
    const images = countingImages()
    const refusing = limiter(false)
    const request = new Request(
      new URL(pageImageUrl(origin.url('photo.jpg'), 320), 'http://localhost'),
      { headers: { 'CF-Connecting-IP': '203.0.113.7' } }
    )
    const { createExecutionContext, waitOnExecutionContext } = await import('cloudflare:test')
    const { default: worker } = await import('../../src/index')
    const ctx = createExecutionContext()
    const response = await worker.fetch(
      request,
      { ...origin.bindings, IMAGES: images.binding, IMAGE_RATE_LIMITER: refusing.binding },
      ctx
    )
    await waitOnExecutionContext(ctx)
    expect(response.status).toBe(429)
    expect(response.headers.get('Retry-After')).toBe('60')
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(response.headers.get('X-Image-Reason')).toBe('rate-limited')
    expect(refusing.keys).toEqual(['image:203.0.113.7'])
    expect(origin.calls).toHaveLength(0)
    expect(images.counts.transforms).toBe(0)
  })

  it('counts only misses: a cached rendition is served without asking the limiter', async () => {
    const allowing = limiter(true)
    const bindings = { ...(env as unknown as Bindings), IMAGE_RATE_LIMITER: allowing.binding }
    const path = pageImageUrl('/images/about/tuff-arcade.jpg', 160)
    expect((await fetchImage(path, bindings)).response.headers.get('X-Image-Cache')).toBe('miss')
    expect((await fetchImage(path, bindings)).response.headers.get('X-Image-Cache')).toBe('hit')
    expect(allowing.keys).toHaveLength(1)
  })
})

describe('GET /_image: bounded work per isolate', SLOW, () => {
  const concurrentMisses = async (answer: () => Response, together = 0) => {
    const origin = cms(
      Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`p${i}.jpg`, answer]))
    )
    const images = together ? countingImages(0, together) : countingImages(150)
    const bindings = { ...origin.bindings, IMAGES: images.binding }
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fetchImage(pageImageUrl(origin.url(`p${i}.jpg`), 160), bindings, ACCEPT.webp)
      )
    )
    expect(answers.map((answer) => answer.response.status)).toEqual(Array(8).fill(200))
    expect(images.counts.transforms).toBe(8)
    return images.counts.mostAtOnce
  }

  it(`runs at most ${MAX_TRANSFORMS_AT_ONCE} transforms of camera photos at once; the others wait for a slot and are served`, async () => {
    expect(cameraJpeg.byteLength * MAX_TRANSFORMS_AT_ONCE).toBeLessThan(MAX_TRANSFORM_BYTES_AT_ONCE)
    const mostAtOnce = await concurrentMisses(
      serveBytes(cameraJpeg, 'image/jpeg', {
        headers: { 'Content-Length': String(cameraJpeg.byteLength) },
      }),
      // Each transform waits for a second one to run beside it: one at a time, each waits in vain.
      2
    )
    expect(mostAtOnce).toBeGreaterThan(1)
    expect(mostAtOnce).toBeLessThanOrEqual(MAX_TRANSFORMS_AT_ONCE)
  })

  it('transforms originals of unknown size one at a time, as if each were 25 MB', async () => {
    expect(await concurrentMisses(serveBytes(cameraJpeg))).toBe(1)
  })

  it(`hands the binding the whole original in reads of ${READ_CHUNK_BYTES / 1024} KB, not the runtime's 4 KB a read`, async () => {
    const origin = cms({ 'reads.jpg': serveBytes(cameraJpeg) })
    const { binding, counts } = countingImages()
    const { response } = await fetchImage(
      pageImageUrl(origin.url('reads.jpg'), 160),
      { ...origin.bindings, IMAGES: binding },
      ACCEPT.webp
    )
    expect(response.status).toBe(200)
    expect(counts.reads.reduce((sum, bytes) => sum + bytes, 0)).toBe(cameraJpeg.byteLength)
    expect(counts.reads).toHaveLength(Math.ceil(cameraJpeg.byteLength / READ_CHUNK_BYTES))
    expect(counts.reads.slice(0, -1).every((bytes) => bytes === READ_CHUNK_BYTES)).toBe(true)
  })
})

describe('GET /_image: work is not thrown away', SLOW, () => {
  it("finishes a transform that outlasts the visitor's wait in the background and serves it from the cache next", async () => {
    // A camera photo of known size (under 8 MB), so the visitor may be given the original meanwhile.
    const origin = cms({
      'slow.jpg': serveBytes(cameraJpeg, 'image/jpeg', {
        headers: { 'Content-Length': String(cameraJpeg.byteLength) },
      }),
    })
    // The visitor waits 8 s; the transform is held 8.3 s, so it outlasts the wait and has the rest of
    // the 16 s the work may take (7.7 s) to run, a margin that a loaded 2-core machine keeps.
    const images = countingImages(8_300)
    const bindings = {
      ...origin.bindings,
      IMAGES: images.binding,
      IMAGE_TRANSFORM_TIMEOUT_MS: '8000',
    }
    const path = pageImageUrl(origin.url('slow.jpg'), 320)
    const first = await fetchImage(path, bindings, ACCEPT.webp) // waits for the background work too
    // Meanwhile the visitor got the original as it is, streamed, not stored anywhere.
    expect(first.response.status).toBe(200)
    expect(first.response.headers.get('X-Image-Outcome')).toBe('original')
    expect(first.response.headers.get('X-Image-Reason')).toBe('still-transforming')
    expect(first.response.headers.get('Cache-Control')).toBe('no-store')
    expect(await digestOf(first.bytes)).toBe(await digestOf(cameraJpeg))
    const second = await fetchImage(path, bindings, ACCEPT.webp)
    expect(second.response.status).toBe(200)
    expect(second.response.headers.get('X-Image-Cache')).toBe('hit')
    expect(second.response.headers.get('Content-Type')).toBe('image/webp')
    expect(images.counts.transforms).toBe(1)
    expect(origin.calls).toHaveLength(2)
  })

  it('gives a visitor with a fallback the bundled file as it is, never transformed, once the original used the wait', async () => {
    const origin = cms({ 'stall.jpg': 'hang' })
    const images = countingImages()
    const bindings = {
      ...origin.bindings,
      IMAGES: images.binding,
      IMAGE_TRANSFORM_TIMEOUT_MS: '1000',
      // The other wait it could take, an hour: whatever the machine's speed, an answer within the
      // test's own time-out is the transform wait's (1 s), never the backend's.
      API_TIMEOUT_MS: '3600000',
    }
    const { response, bytes } = await fetchImage(
      pageImageUrl(origin.url('stall.jpg'), 640, BANNER_FALLBACK),
      bindings,
      ACCEPT.webp
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('X-Image-Outcome')).toBe('fallback')
    expect(await digestOf(bytes)).toBe(await digestOf(await assetBytes(BANNER_FALLBACK)))
    expect(images.counts.transforms).toBe(0)
  })

  it('lets a second request for a rendition being made wait for it instead of downloading it again', async () => {
    const origin = cms({ 'shared.jpg': serveBytes(cameraJpeg) })
    const images = countingImages(300)
    const bindings = { ...origin.bindings, IMAGES: images.binding }
    const path = pageImageUrl(origin.url('shared.jpg'), 480)
    const [a, b] = await Promise.all([
      fetchImage(path, bindings, ACCEPT.webp),
      fetchImage(path, bindings, ACCEPT.webp),
    ])
    expect([a.response.status, b.response.status]).toEqual([200, 200])
    expect(await digestOf(a.bytes)).toBe(await digestOf(b.bytes))
    expect(origin.calls).toHaveLength(1)
    expect(images.counts.transforms).toBe(1)
  })
})
