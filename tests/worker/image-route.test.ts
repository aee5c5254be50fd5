/**
 * GET /_image (src/routes/images.ts, src/images/): content images at the ladder's widths, in the
 * format the browser accepts, from allowed sources only, with a clear outcome for every origin
 * that misbehaves. Originals come from the bundled assets or from a fake CMS origin at `fetch`
 * (tests/support/worker/fake-backend.ts); the Images binding is the real local one (sharp).
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Bindings } from '../../src/env'
import { IMAGE_WIDTHS, renderPreview } from '../../src/images'
import { MAX_ORIGINAL_BYTES } from '../../src/images/limits'
import { IMAGE_REASONS, type ImageReason } from '../../src/images/reasons'
import { fakeBackend, text, type Answer } from '../support/worker/fake-backend'
import { fakeSentry, SENTRY_DSN } from '../support/worker/fake-sentry'
import {
  ACCEPT,
  assetBytes,
  decodeBase64,
  fakeCms as cms,
  digestOf,
  fetchImage,
  imageInfo,
  pageImageUrl,
  serveBytes,
} from '../support/worker/images'

const cameraJpeg = decodeBase64(env.TEST_IMAGES.cameraJpeg)
const bombPng = decodeBase64(env.TEST_IMAGES.bombPng)
const overLimitPng = decodeBase64(env.TEST_IMAGES.overLimitPng)
const HERO = '/images/banners/home-hero-1.jpg'
/** Real encodes of a 4000×3000 photo: seconds each on a busy 2-core machine, so more than the default 5 s. */
const TRANSFORMS = { timeout: 30_000 }
const BANNER_FALLBACK = '/default-banner.jpg'

let cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.reverse()) cleanup()
  cleanups = []
  vi.restoreAllMocks()
})

/**
 * Every request the worker sends to `origin` while the test runs (answered with a JPEG-looking
 * body, never sent). Wraps whatever `fetch` is installed, so install it after `cms()`.
 */
function watchOrigin(origin: string) {
  const seen: string[] = []
  const previous = globalThis.fetch
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(new Request(input, init).url)
    if (url.origin !== origin) return previous(input, init)
    seen.push(url.href)
    return new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), {
      headers: { 'Content-Type': 'image/jpeg' },
    })
  }
  cleanups.push(() => void (globalThis.fetch = previous))
  return seen
}

describe('GET /_image: the width ladder', TRANSFORMS, () => {
  it.each(IMAGE_WIDTHS)('serves a 4000×3000 camera photo %i px wide', async (width) => {
    const origin = cms({ 'photo.jpg': serveBytes(cameraJpeg) })
    const { response, bytes } = await fetchImage(
      pageImageUrl(origin.url('photo.jpg'), width),
      origin.bindings,
      ACCEPT.webp
    )
    expect(response.status).toBe(200)
    expect(await imageInfo(bytes)).toEqual({
      format: 'image/webp',
      width,
      height: Math.round((width * 3000) / 4000),
    })
    expect(bytes.byteLength).toBeLessThan(cameraJpeg.byteLength)
  })

  it.each(['500', '0', '1921', '640.5', '-640', 'abc', ''])(
    'refuses width "%s" with 400 and names the ladder',
    async (width) => {
      const { response, text } = await fetchImage(
        `/_image?src=${encodeURIComponent(HERO)}&w=${width}`,
        env
      )
      expect(response.status).toBe(400)
      expect(text()).toContain(IMAGE_WIDTHS.join(', '))
    }
  )

  it('never enlarges: a bundled image narrower than the width asked comes back at its own width', async () => {
    const original = await imageInfo(await assetBytes(HERO))
    expect(original.width).toBeLessThan(1920)
    const { response, bytes } = await fetchImage(pageImageUrl(HERO, 1920), env, ACCEPT.none)
    expect(response.status).toBe(200)
    expect(await imageInfo(bytes)).toEqual(original)
  })

  it('refuses a request without src, and a fallback that is not a bundled slot image, with 400', async () => {
    expect((await fetchImage('/_image?w=640', env)).response.status).toBe(400)
    const { response } = await fetchImage(pageImageUrl(HERO, 640, 'https://evil.test/x.jpg'), env)
    expect(response.status).toBe(400)
    expect(response.headers.get('X-Image-Reason')).toBe('fallback-not-served')
  })
})

describe('GET /_image: formats', TRANSFORMS, () => {
  it.each([
    ['AVIF to a browser that accepts it', ACCEPT.avif, 'image/avif'],
    ['WebP to a browser that accepts WebP but not AVIF', ACCEPT.webp, 'image/webp'],
    ['JPEG, the source format, to a client that names neither', ACCEPT.none, 'image/jpeg'],
  ])('serves %s, with Vary: Accept', async (_, accept, format) => {
    const { response, bytes } = await fetchImage(pageImageUrl(HERO, 320), env, accept)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe(format)
    expect(response.headers.get('Vary')).toBe('Accept')
    expect((await imageInfo(bytes)).format).toBe(format)
  })

  it('keeps a PNG a PNG for a client that names no modern format', async () => {
    const { response, bytes } = await fetchImage(
      pageImageUrl('/images/icons/award.png', 320),
      env,
      ACCEPT.none
    )
    expect(response.headers.get('Content-Type')).toBe('image/png')
    expect((await imageInfo(bytes)).format).toBe('image/png')
  })
})

describe('GET /_image: caching', TRANSFORMS, () => {
  it('marks a rendition cacheable for a year and serves the second request from the cache, without the origin', async () => {
    const origin = cms({ 'cached.jpg': serveBytes(cameraJpeg) })
    const path = pageImageUrl(origin.url('cached.jpg'), 480)
    const first = await fetchImage(path, origin.bindings, ACCEPT.webp)
    expect(first.response.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    expect(first.response.headers.get('X-Image-Cache')).toBe('miss')
    const second = await fetchImage(path, origin.bindings, ACCEPT.webp)
    expect(second.response.status).toBe(200)
    expect(second.response.headers.get('X-Image-Cache')).toBe('hit')
    expect(second.response.headers.get('Vary')).toBe('Accept')
    expect(await digestOf(second.bytes)).toBe(await digestOf(first.bytes))
    expect(origin.calls).toHaveLength(1)
  })

  it('keeps one rendition per format: another Accept is transformed on its own', async () => {
    const origin = cms({ 'formats.jpg': serveBytes(cameraJpeg) })
    const path = pageImageUrl(origin.url('formats.jpg'), 320)
    await fetchImage(path, origin.bindings, ACCEPT.webp)
    const jpeg = await fetchImage(path, origin.bindings, ACCEPT.none)
    expect(jpeg.response.headers.get('Content-Type')).toBe('image/jpeg')
    expect(origin.calls).toHaveLength(2)
  })

  it("transforms a bundled image again after a deploy, which may have changed it, but keeps a CMS photo's renditions", async () => {
    const origin = cms({ 'kept.jpg': serveBytes(cameraJpeg) })
    const deploy = (id: string): Bindings => ({
      ...origin.bindings,
      CF_VERSION_METADATA: { id, tag: '', timestamp: '' },
    })
    const bundled = pageImageUrl('/images/about/blueprint.jpg', 320)
    expect(
      (await fetchImage(bundled, deploy('deploy-1'))).response.headers.get('X-Image-Cache')
    ).toBe('miss')
    expect(
      (await fetchImage(bundled, deploy('deploy-1'))).response.headers.get('X-Image-Cache')
    ).toBe('hit')
    expect(
      (await fetchImage(bundled, deploy('deploy-2'))).response.headers.get('X-Image-Cache')
    ).toBe('miss')
    const photo = pageImageUrl(origin.url('kept.jpg'), 320)
    await fetchImage(photo, deploy('deploy-1'))
    expect(
      (await fetchImage(photo, deploy('deploy-2'))).response.headers.get('X-Image-Cache')
    ).toBe('hit')
    expect(origin.calls).toHaveLength(1)
  })

  it('is not a page: no language redirect, no page cache', async () => {
    const { response } = await fetchImage(pageImageUrl(HERO, 320), env)
    expect(response.headers.get('X-Page-Cache')).toBeNull()
    expect(response.headers.get('Content-Security-Policy')).toBeTruthy()
  })
})

describe('GET /_image: only allowed sources', TRANSFORMS, () => {
  it.each([
    ['another origin', 'https://evil.test/photo.jpg'],
    ['a protocol-relative address', '//evil.test/photo.jpg'],
    ['a javascript: address', 'javascript:alert(1)'],
    ['a data: address', 'data:image/png;base64,AAAA'],
    ['an address longer than 2048 characters', `/images/${'a'.repeat(2048)}.jpg`],
  ])('refuses %s with 403 and fetches nothing', async (_, src) => {
    const seen = watchOrigin('https://evil.test')
    const { response } = await fetchImage(pageImageUrl(src, 640), env)
    expect(response.status).toBe(403)
    expect(response.headers.get('X-Image-Reason')).toBe('source-refused')
    expect(seen).toEqual([])
  })

  it('serves from an origin listed in IMAGE_ORIGINS', async () => {
    const cdn = cms({ 'cdn.jpg': serveBytes(cameraJpeg) })
    const bindings = {
      ...(env as unknown as Bindings),
      API_HOST: '',
      IMAGE_ORIGINS: `https://media.example.am, ${cdn.origin}`,
    }
    const { response } = await fetchImage(pageImageUrl(cdn.url('cdn.jpg'), 320), bindings)
    expect(response.status).toBe(200)
  })

  it('follows a redirect that stays on allowed origins', async () => {
    const origin = cms({
      'moved.jpg': () =>
        new Response(null, { status: 301, headers: { Location: '/uploads/new.jpg' } }),
      'new.jpg': serveBytes(cameraJpeg),
    })
    const { response } = await fetchImage(
      pageImageUrl(origin.url('moved.jpg'), 320),
      origin.bindings
    )
    expect(response.status).toBe(200)
    expect(origin.callsTo('new.jpg')).toHaveLength(1)
  })

  it('gives up after 3 redirects with 422', async () => {
    const origin = cms({
      'loop.jpg': () =>
        new Response(null, { status: 302, headers: { Location: '/uploads/loop.jpg' } }),
    })
    const { response } = await fetchImage(
      pageImageUrl(origin.url('loop.jpg'), 320),
      origin.bindings
    )
    expect(response.status).toBe(422)
    expect(response.headers.get('X-Image-Reason')).toBe('too-many-redirects')
    expect(origin.calls).toHaveLength(4)
  })

  it('refuses a redirect that leaves the allowed origins, without following it', async () => {
    const origin = cms({
      'out.jpg': () =>
        new Response(null, { status: 302, headers: { Location: 'https://evil.test/photo.jpg' } }),
    })
    const seen = watchOrigin('https://evil.test')
    const { response } = await fetchImage(pageImageUrl(origin.url('out.jpg'), 640), origin.bindings)
    expect(response.status).toBe(422)
    expect(response.headers.get('X-Image-Reason')).toBe('redirect-refused')
    expect(seen).toEqual([])
  })
})

describe('GET /_image: an origin that misbehaves', TRANSFORMS, () => {
  it.each([
    [
      'an HTML page',
      'page.jpg',
      () => new Response('<!doctype html><p>Login', { headers: { 'Content-Type': 'text/html' } }),
      'not-an-image',
    ],
    [
      'HTML labelled as a JPEG',
      'liar.jpg',
      serveBytes(new TextEncoder().encode('<!doctype html><p>Error</p>')),
      'not-an-image',
    ],
    [
      'an original over 25 MB by its Content-Length',
      'huge.jpg',
      () =>
        new Response(hugeStream(), {
          headers: {
            'Content-Type': 'image/jpeg',
            'Content-Length': String(MAX_ORIGINAL_BYTES + 1),
          },
        }),
      'too-large',
    ],
    [
      'an original over 25 MB counted while streaming',
      'endless.jpg',
      () => new Response(hugeStream(), { headers: { 'Content-Type': 'image/jpeg' } }),
      'too-large',
    ],
    [
      'a gzip body of 26 KB that inflates past 25 MB',
      'inflating.jpg',
      () =>
        new Response(inflatingStream(), {
          headers: { 'Content-Type': 'image/jpeg', 'Content-Encoding': 'gzip' },
        }),
      'too-large',
    ],
    [
      'a decompression bomb (60000×60000 px)',
      'bomb.png',
      serveBytes(bombPng, 'image/png'),
      'too-many-pixels',
    ],
    [
      'an original over 100 megapixels (15000×15000 px in a few hundred bytes)',
      'bomb2.png',
      serveBytes(overLimitPng, 'image/png'),
      'too-many-pixels',
    ],
    [
      'a JPEG whose header ends before its pixel size',
      'truncated.jpg',
      serveBytes(cameraJpeg.slice(0, 100)),
      'unreadable-header',
    ],
  ])('answers %s with 422 and a fixed reason', async (_, file, answer, reason) => {
    const origin = cms({ [file]: answer })
    const { response, text } = await fetchImage(
      pageImageUrl(origin.url(file), 640),
      origin.bindings
    )
    expect(response.status).toBe(422)
    expect(response.headers.get('Content-Type')).toContain('text/plain')
    expect(response.headers.get('X-Image-Reason')).toBe(reason)
    expect(text()).toBe(`${IMAGE_REASONS[reason as ImageReason]}\n`)
  })

  it('never transforms an SVG: 415, or the fallback', async () => {
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'
    )
    const origin = cms({ 'logo.svg': serveBytes(svg, 'image/svg+xml') })
    expect(
      (await fetchImage(pageImageUrl(origin.url('logo.svg'), 320), origin.bindings)).response.status
    ).toBe(415)
    const withFallback = await fetchImage(
      pageImageUrl(origin.url('logo.svg'), 320, BANNER_FALLBACK),
      origin.bindings
    )
    expect(withFallback.response.headers.get('Content-Type')).toBe('image/avif')
  })

  it.each([
    ['a 404', 'missing.jpg', text('not found', 404), 404],
    ['a 500', 'broken.jpg', text('oops', 500), 404],
    ['an origin slower than the time-out', 'slow.jpg', 'hang' as const, 404],
  ])(
    'answers %s with a 4xx, or with the slot fallback at the same width',
    async (_, file, answer, status) => {
      const origin = cms({ [file]: answer })
      const bare = await fetchImage(pageImageUrl(origin.url(file), 640), origin.bindings)
      expect(bare.response.status).toBe(status)
      const { response, bytes } = await fetchImage(
        pageImageUrl(origin.url(file), 640, BANNER_FALLBACK),
        origin.bindings,
        ACCEPT.webp
      )
      expect(response.status).toBe(200)
      expect(response.headers.get('X-Image-Outcome')).toBe('fallback')
      expect(response.headers.get('Cache-Control')).toBe('public, max-age=60')
      const fallback = await imageInfo(await assetBytes(BANNER_FALLBACK))
      expect(await imageInfo(bytes)).toMatchObject({
        format: 'image/webp',
        width: Math.min(640, fallback.width),
      })
    }
  )

  it("answers a failed transform with a fixed reason, keeps the binding's text for Sentry, and serves the fallback when there is one", async () => {
    const sentry = fakeSentry()
    cleanups.push(sentry.restore)
    const origin = cms({ 'photo.jpg': serveBytes(cameraJpeg) }, { SENTRY_DSN })
    const internal =
      'IMAGES: 9523: transform failed\n    at decode (/home/build/images/decoder.js:12:7)'
    const failingImages = imagesWhoseOutput(() => Promise.reject(new Error(internal)))
    const { response, text } = await fetchImage(pageImageUrl(origin.url('photo.jpg'), 640), {
      ...origin.bindings,
      IMAGES: failingImages,
    })
    expect(response.status).toBe(502)
    expect(response.headers.get('X-Image-Reason')).toBe('transform-failed')
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=60')
    expect(text()).toBe(`${IMAGE_REASONS['transform-failed']}\n`)
    expect(sentry.events).toHaveLength(1)
    expect(sentry.events[0]?.tags).toMatchObject({
      kind: 'backend',
      backend_key: 'images',
      image_stage: 'transform',
    })
    expect(sentry.events[0]?.exception?.values?.at(-1)?.value).toContain('9523: transform failed')

    const withFallback = await fetchImage(
      pageImageUrl(origin.url('photo.jpg'), 640, BANNER_FALLBACK),
      { ...origin.bindings, IMAGES: failingImages }
    )
    expect(withFallback.response.status).toBe(200)
    expect(withFallback.response.headers.get('X-Image-Outcome')).toBe('fallback')
    expect(withFallback.response.headers.get('X-Image-Reason')).toBe('transform-failed')
    expect(await digestOf(withFallback.bytes)).toBe(
      await digestOf(await assetBytes(BANNER_FALLBACK))
    )
  })

  it('never puts internal text in an answer: every refusal and failure carries one of the fixed reasons', async () => {
    const origin = cms({
      'bomb.png': serveBytes(bombPng, 'image/png'),
      'page.jpg': () =>
        new Response('<html>/srv/cms/app.php line 12</html>', {
          headers: { 'Content-Type': 'text/html' },
        }),
      'missing.jpg': text('Not Found: /var/www/uploads/missing.jpg', 404),
      'broken.jpg': serveBytes(cameraJpeg),
    })
    const failingImages = imagesWhoseOutput(() =>
      Promise.reject(new Error('Error: vips_foreign_load at /usr/lib/libvips.so'))
    )
    for (const file of ['bomb.png', 'page.jpg', 'missing.jpg', 'broken.jpg']) {
      const { response, text } = await fetchImage(pageImageUrl(origin.url(file), 640), {
        ...origin.bindings,
        IMAGES: failingImages,
      })
      const reason = response.headers.get('X-Image-Reason') as ImageReason
      expect(Object.keys(IMAGE_REASONS)).toContain(reason)
      expect(text()).toBe(`${IMAGE_REASONS[reason]}\n`)
    }
  })
})

describe('GET /_image: a worker deployed without the Images binding', TRANSFORMS, () => {
  it('serves originals, briefly cached, and reports the missing binding', async () => {
    const sentry = fakeSentry()
    cleanups.push(sentry.restore)
    const { response, bytes } = await fetchImage(pageImageUrl(HERO, 640), {
      ...(env as unknown as Bindings),
      SENTRY_DSN,
      IMAGES: undefined as unknown as ImagesBinding,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('X-Image-Outcome')).toBe('original')
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=60')
    expect(await digestOf(bytes)).toBe(await digestOf(await assetBytes(HERO)))
    expect(sentry.events.map((event) => event.exception?.values?.at(-1)?.value)).toEqual([
      expect.stringContaining('IMAGES binding is not configured'),
    ])
  })
})

describe('renderPreview (placeholders)', TRANSFORMS, () => {
  it('makes a 16 px WebP of a camera photo and tells its original size', async () => {
    const origin = cms({ 'preview.jpg': serveBytes(cameraJpeg) })
    const preview = await renderPreview(origin.bindings, origin.url('preview.jpg'), 16)
    expect(preview.original).toEqual({ width: 4000, height: 3000 })
    expect(await imageInfo(preview.bytes)).toEqual({ format: 'image/webp', width: 16, height: 12 })
  })

  it('refuses what the route refuses, saying why, without fetching it', async () => {
    const seen = watchOrigin('https://evil.test')
    await expect(renderPreview(env, 'https://evil.test/photo.jpg', 16)).rejects.toThrow(
      'not an allowed image origin'
    )
    const origin = cms({ 'bomb.png': serveBytes(overLimitPng, 'image/png') })
    await expect(renderPreview(origin.bindings, origin.url('bomb.png'), 16)).rejects.toThrow(
      '15000×15000'
    )
    expect(seen).toEqual([])
  })
})

/** 26 MB of a real JPEG's header (4000×3000) and zeros, produced as it is read. */
function hugeStream(): ReadableStream<Uint8Array> {
  const header = cameraJpeg.slice(0, 16 * 1024)
  const chunk = new Uint8Array(1024 * 1024)
  let sent = 0
  return new ReadableStream({
    pull(controller) {
      if (sent > MAX_ORIGINAL_BYTES + chunk.byteLength) return controller.close()
      controller.enqueue(sent === 0 ? header.slice() : chunk.slice())
      sent += sent === 0 ? header.byteLength : chunk.byteLength
    },
  })
}

/** A gzip body of a JPEG's first bytes and zeros that inflates to 26 MB, as fetch hands it over (already inflated). */
function inflatingStream(): ReadableStream<Uint8Array> {
  return new Response(hugeStream())
    .body!.pipeThrough(new CompressionStream('gzip'))
    .pipeThrough(new DecompressionStream('gzip'))
}

/** A binding whose transform's output is `output()`. */
function imagesWhoseOutput(output: () => Promise<unknown>): ImagesBinding {
  return {
    info: (stream: ReadableStream<Uint8Array>) => env.IMAGES.info(stream),
    input: () => ({
      transform() {
        return this
      },
      output,
    }),
  } as unknown as ImagesBinding
}
