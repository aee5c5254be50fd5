/**
 * Content images in the pages' markup (src/views/components/image.tsx, image-layouts.ts), every
 * page in every language with the seeded reference content: each image role points at the image
 * route with a `srcset` over the widths its layout can need and the `sizes` of its layout; the
 * page's banner is preloaded from the head; photos carry the placeholder computed at the edge
 * (src/images/placeholders.ts) once it exists, and logos and icons never do.
 */
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Bindings } from '../../src/env'
import { IMAGE_WIDTHS } from '../../src/images/image-url'
import { pageImageUrl } from '../support/worker/images'
import { collectImageSources } from '../../src/images/page-placeholders'
import { PLACEHOLDER_INDEX_KEY, placeholderKey } from '../../src/images/placeholders'
import { Image } from '../../src/views/components/image'
import {
  IMAGE_LAYOUTS,
  widthsFor,
  type ImageLayoutName,
} from '../../src/views/components/image-layouts'
import home from '../../content-service/seed/home.json'
import { imageSource, renderView, select, type Found } from '../support/worker/views'
import { fetchPage, newIsolate } from '../support/worker/worker'
import { PAGE_ADDRESSES } from '../support/page-addresses'

/** Where each layout is used, by the selector of its <img>. */
const ROLES: [selector: string, layout: ImageLayoutName][] = [
  ['img.page-banner__image', 'banner'],
  ['img.wide-banner__image', 'banner'],
  ['img.about-partners__background', 'banner'],
  ['.home-about__media img', 'split'],
  ['.feature-row__media img', 'split'],
  ['img.quote-card__image', 'quote'],
  ['img.contact-layout__image', 'contact'],
  ['img.enterprise-card__image', 'card'],
  ['img.project-card__image', 'card'],
  ['img.mission-card__image', 'mission'],
  ['img.founder__photo', 'founder'],
  ['img.partner__logo', 'partner'],
  ['img.service-card__icon', 'serviceIcon'],
  ['.feature-row__icon img', 'rowIcon'],
  ['.project__icon img', 'rowIcon'],
]

/** The page cache off, so that a second request renders again. */
const uncached: Bindings = { ...env, PAGE_CACHE_TTL: '0' }

async function pageHtml(path: string, bindings: Bindings = env): Promise<string> {
  const response = await fetchPage(path, bindings)
  expect(response.status).toBe(200)
  return response.text()
}

/** The candidates of a srcset: [address, width]. */
function candidates(srcset: string): [string, number][] {
  return srcset.split(', ').map((candidate) => {
    const [url, descriptor] = candidate.split(' ')
    return [url!, Number(descriptor!.replace(/w$/, ''))]
  })
}

function expectLayout(image: Found, layout: ImageLayoutName) {
  const { src = '', srcset = '', sizes } = image.attrs
  const source = imageSource(src)
  expect(source).not.toBe('')
  expect(sizes).toBe(IMAGE_LAYOUTS[layout].sizes)
  const listed = candidates(srcset)
  expect(listed.map(([, width]) => width)).toEqual(widthsFor(IMAGE_LAYOUTS[layout], IMAGE_WIDTHS))
  for (const [url, width] of listed) {
    expect(imageSource(url)).toBe(source)
    expect(new URL(url, 'http://localhost').searchParams.get('w')).toBe(String(width))
  }
  expect(listed.map(([url]) => url)).toContain(src)
}

describe('content images on every page', () => {
  it.each(PAGE_ADDRESSES)(
    '%s gives every image the image route, srcset and sizes of its role',
    async (path) => {
      const html = await pageHtml(path)
      let matched = 0
      for (const [selector, layout] of ROLES) {
        const images = await select(html, selector)
        for (const image of images) expectLayout(image, layout)
        matched += images.length
      }
      // No image escapes the table above.
      expect(matched).toBe((await select(html, 'main img')).length)
    }
  )

  it('uses every role somewhere in the reference content', async () => {
    const seen = new Set<ImageLayoutName>()
    for (const path of ['/en', '/en/about', '/en/enterprises', '/en/contact-us']) {
      const html = await pageHtml(path)
      for (const [selector, layout] of ROLES)
        if ((await select(html, selector)).length > 0) seen.add(layout)
    }
    expect([...seen].sort()).toEqual(Object.keys(IMAGE_LAYOUTS).sort())
  })

  it('offers only the rungs a browser can pick: from the narrowest display at DPR 1 to three times the widest', () => {
    expect(widthsFor(IMAGE_LAYOUTS.founder, IMAGE_WIDTHS)).toEqual([160, 320, 480, 640])
    expect(widthsFor(IMAGE_LAYOUTS.partner, IMAGE_WIDTHS)).toEqual([160, 320, 480])
    expect(widthsFor(IMAGE_LAYOUTS.serviceIcon, IMAGE_WIDTHS)).toEqual([96, 160])
    expect(widthsFor(IMAGE_LAYOUTS.card, IMAGE_WIDTHS)).toEqual([
      320, 480, 640, 768, 960, 1280, 1600, 1920,
    ])
    expect(widthsFor(IMAGE_LAYOUTS.banner, IMAGE_WIDTHS)).toEqual(IMAGE_WIDTHS.slice(2))
  })

  it('sends a missing image through the route with its slot fallback, and a missing address as the fallback itself', async () => {
    const slide = (await select(await pageHtml('/en'), 'img.enterprise-card__image'))[0]!
    expect(slide.attrs.src).toBe(
      pageImageUrl(home.enterprisesHome[0]!.img, 768, '/default-enterprise.jpg')
    )
    for (const [url] of candidates(slide.attrs.srcset ?? '')) {
      expect(new URL(url, 'http://localhost').searchParams.get('fallback')).toBe(
        '/default-enterprise.jpg'
      )
    }
    const missing = renderView(Image, {
      src: 'javascript:alert(1)',
      fallback: '/default-banner.jpg',
      alt: '',
      width: 16,
      height: 9,
      layout: 'banner',
    })
    const image = (await select(missing, 'img'))[0]!
    expect(image.attrs.src).toBe(pageImageUrl('/default-banner.jpg', 768))
    expect(missing).not.toContain('javascript')
  })
})

describe('the largest image is preloaded', () => {
  it.each(PAGE_ADDRESSES)(
    '%s preloads its banner from the head with its srcset, sizes and high priority',
    async (path) => {
      const html = await pageHtml(path)
      const head = html.slice(0, html.indexOf('</head>'))
      const preloads = (await select(head, 'link[rel="preload"][as="image"]')).filter(
        (link) => link.attrs.imagesrcset
      )
      const banner = (await select(html, 'img.page-banner__image'))[0]!
      expect(preloads.map((link) => link.attrs)).toEqual([
        expect.objectContaining({
          imagesrcset: banner.attrs.srcset,
          imagesizes: banner.attrs.sizes,
          fetchpriority: 'high',
        }),
      ])
      expect(banner.attrs).toMatchObject({ loading: 'eager', fetchpriority: 'high' })
      const others = (await select(html, 'main img')).filter(
        (image) => image !== banner && !image.attrs.class?.includes('page-banner__image')
      )
      expect(
        others.every((image) => image.attrs.loading === 'lazy' && !image.attrs.fetchpriority)
      ).toBe(true)
    }
  )
})

describe('placeholders', () => {
  /** The placeholders module of this test's isolate: each test starts in a new one. */
  let placeholders: typeof import('../../src/images/placeholders')
  async function newPlaceholdersIsolate() {
    newIsolate()
    placeholders = await import('../../src/images/placeholders')
  }
  beforeEach(newPlaceholdersIsolate)

  it('names the image sources of a payload as the views render them, in every language, with the slot fallbacks', () => {
    const sources = collectImageSources([
      {
        banner: [{ img: ' /images/hero.jpg ' }],
        arm_banner: [{ img: 'https://cms.example/hy.jpg' }],
        aboutHome: { img: 'javascript:alert(1)', title: '/not-an-image.jpg' },
        enterprisesHome: [{ img: '', icon: '/i.png' }],
      },
      { firstBanner: '/contact.jpg', secondBanner: '' },
    ])
    expect(sources).toEqual(
      expect.arrayContaining([
        '/images/hero.jpg',
        'https://cms.example/hy.jpg',
        '/i.png',
        '/contact.jpg',
        '/default-banner.jpg',
        '/default-enterprise.jpg',
      ])
    )
    expect(sources).not.toContain('/not-an-image.jpg')
    expect(sources.some((source) => source.startsWith('javascript:'))).toBe(false)
  })

  it('paints each photo with a preview computed from the image once the first visit has computed it', async () => {
    await pageHtml('/en/about', uncached)
    const html = await pageHtml('/en/about', uncached)
    for (const selector of [
      'img.page-banner__image',
      'img.wide-banner__image',
      'img.quote-card__image',
      'img.mission-card__image',
      'img.about-partners__background',
    ]) {
      for (const image of await select(html, selector)) {
        expect(image.attrs.style, selector).toMatch(
          /^background:center \/ cover no-repeat url\(data:image\/webp\\3b base64,[A-Za-z0-9+/]+={0,2}\)$/
        )
      }
    }
    // Logos are contained, not covered: a preview would show through their transparent pixels.
    for (const logo of await select(html, 'img.partner__logo'))
      expect(logo.attrs.style).toBeUndefined()
  })

  it('keeps a preview small enough to inline: a 16-px WebP', async () => {
    const source = '/images/banners/about-hero.jpg'
    await placeholders.warmPlaceholders(env, [source])
    const preview =
      (await placeholders.readPlaceholderStates(env.CONTENT_CACHE, [source])).previews.get(
        source
      ) ?? ''
    expect(preview).toMatch(/^data:image\/webp;base64,/)
    expect(preview.length).toBeLessThan(400)
  })

  it('writes only the placeholders KV does not have, and marks a source that cannot be loaded as settled for a while', async () => {
    const kept = '/images/founders/aram-petrosyan.jpg'
    const stored = 'data:image/webp;base64,AAAA'
    await env.CONTENT_CACHE.put(placeholderKey(kept), stored)
    await placeholders.warmPlaceholders(env, [
      kept,
      '/images/founders/davit-sargsyan.jpg',
      '/images/nowhere.jpg',
      'https://evil.example/a.jpg',
    ])
    expect(await env.CONTENT_CACHE.get(placeholderKey(kept))).toBe(stored)
    expect(
      await env.CONTENT_CACHE.get(placeholderKey('/images/founders/davit-sargsyan.jpg'))
    ).toMatch(/^data:image\/webp;base64,/)
    // Not a preview (never painted), but no page waits for it any more.
    expect(await env.CONTENT_CACHE.get(placeholderKey('/images/nowhere.jpg'))).toBe('unavailable')
    expect(await env.CONTENT_CACHE.get(placeholderKey('https://evil.example/a.jpg'))).toBe(
      'unavailable'
    )
    const { previews, pending } = await placeholders.readPlaceholderStates(env.CONTENT_CACHE, [
      '/images/nowhere.jpg',
      kept,
      '/images/never-asked.jpg',
    ])
    expect([...previews.keys()]).toEqual([kept])
    expect(pending).toEqual(['/images/never-asked.jpg'])
  })

  it('marks a page rendered before its placeholders exist provisional, and the next render complete', async () => {
    const key = placeholderKey('/images/banners/contact-hero.jpg')
    await env.CONTENT_CACHE.delete(key)
    // Nor in the index, the copy a render reads (the others are read back from their own keys).
    await env.CONTENT_CACHE.delete(PLACEHOLDER_INDEX_KEY)
    const first = await fetchPage('/ru/contact-us', uncached)
    expect(first.headers.get('ETag')).toMatch(/\.provisional"$/)
    expect(await env.CONTENT_CACHE.get(key)).toMatch(/^data:image\/webp;base64,/)
    const second = await fetchPage('/ru/contact-us', uncached)
    expect(second.headers.get('ETag')).not.toMatch(/\.provisional"$/)
    const banner = (await select(await second.text(), 'img.page-banner__image'))[0]!
    expect(banner.attrs.style).toContain('data:image/webp')
  })

  it('asks KV only for the sources it has not settled in the last minute, and every time for a pending one', async () => {
    const settledSource = '/images/missions/quality.jpg'
    const pendingSource = '/images/never-computed.jpg'
    const preview = 'data:image/webp;base64,AAAA'
    await env.CONTENT_CACHE.put(placeholderKey(settledSource), preview)
    const asked: string[][] = []
    const counting = new Proxy(env.CONTENT_CACHE, {
      get(target, property) {
        if (property === 'get')
          return (keys: string[], type: 'text') => (asked.push(keys), target.get(keys, type))
        return Reflect.get(target, property)
      },
    })
    let clock = 1_000_000
    const read = () =>
      placeholders.readPlaceholderStates(counting, [settledSource, pendingSource], () => clock)

    expect(await read()).toEqual({
      previews: new Map([[settledSource, preview]]),
      pending: [pendingSource],
    })
    expect(asked).toEqual([[placeholderKey(settledSource), placeholderKey(pendingSource)]])
    // A render 59 s later: the settled preview from memory, the pending source from KV again.
    clock += 59_000
    await env.CONTENT_CACHE.put(placeholderKey(settledSource), 'data:image/webp;base64,BBBB')
    expect(await read()).toEqual({
      previews: new Map([[settledSource, preview]]),
      pending: [pendingSource],
    })
    expect(asked[1]).toEqual([placeholderKey(pendingSource)])
    // A minute after it was read, the settled source is read again and its new preview used.
    clock += 2_000
    expect((await read()).previews.get(settledSource)).toBe('data:image/webp;base64,BBBB')
    expect(asked[2]).toEqual([placeholderKey(settledSource), placeholderKey(pendingSource)])
  })

  it('makes no KV read at all for a page whose placeholders are all settled', async () => {
    await fetchPage('/en/about', uncached)
    await fetchPage('/en/about', uncached)
    const get = vi.spyOn(env.CONTENT_CACHE, 'get')
    const page = await fetchPage('/en/about', uncached)
    get.mockRestore()
    expect(page.headers.get('ETag')).not.toMatch(/\.provisional"$/)
    const placeholderReads = get.mock.calls.filter(
      ([keys]) => Array.isArray(keys) && keys.some((key) => String(key).startsWith('placeholder:'))
    )
    expect(placeholderReads).toEqual([])
  })

  it('ignores a stored value that is not a preview this module wrote', async () => {
    const source = '/images/missions/quality.jpg'
    await env.CONTENT_CACHE.put(
      placeholderKey(source),
      'red;background:url(https://evil.example/x)'
    )
    expect(
      (await placeholders.readPlaceholderStates(env.CONTENT_CACHE, [source])).previews.has(source)
    ).toBe(false)
  })

  it("rebuilds a lost index from the placeholders' own keys after the response, and a new isolate's render then has them all", async () => {
    await fetchPage('/en/about', uncached)
    await fetchPage('/en/about', uncached)
    await env.CONTENT_CACHE.delete(PLACEHOLDER_INDEX_KEY)
    await newPlaceholdersIsolate()
    const lacking = await fetchPage('/en/about', uncached)
    expect(lacking.headers.get('ETag')).toMatch(/\.provisional"$/)
    expect(await env.CONTENT_CACHE.get(PLACEHOLDER_INDEX_KEY)).not.toBeNull()
    // A new isolate reads the index alone: no read of a placeholder's own key.
    await newPlaceholdersIsolate()
    const get = vi.spyOn(env.CONTENT_CACHE, 'get')
    const page = await fetchPage('/en/about', uncached)
    const html = await page.text()
    get.mockRestore()
    expect(page.headers.get('ETag')).not.toMatch(/\.provisional"$/)
    expect(html).toContain('url(data:image/webp\\3b base64,')
    const ownKeyReads = get.mock.calls.filter(
      ([keys]) => Array.isArray(keys) && keys.some((key) => String(key).startsWith('placeholder:'))
    )
    expect(ownKeyReads).toEqual([])
  })

  it("never extends an index entry past its own key's expiry by reading the key back, so a photo replaced under the same address is redrawn", async () => {
    const source = '/images/missions/quality.jpg'
    const preview = 'data:image/webp;base64,AAAA'
    const until = Date.now() + 5_000
    await env.CONTENT_CACHE.put(placeholderKey(source), preview)
    await env.CONTENT_CACHE.put(
      PLACEHOLDER_INDEX_KEY,
      JSON.stringify({ [source]: { value: preview, until } })
    )
    await placeholders.readPlaceholderStates(env.CONTENT_CACHE, [source])
    await placeholders.indexSettledPlaceholders(env.CONTENT_CACHE, [source])
    const index = JSON.parse((await env.CONTENT_CACHE.get(PLACEHOLDER_INDEX_KEY)) ?? '{}')
    expect(index[source]).toEqual({ value: preview, until })
    // A preview computed anew is indexed with its new key's expiry.
    await env.CONTENT_CACHE.delete(placeholderKey(source))
    await newPlaceholdersIsolate()
    await placeholders.warmPlaceholders(env, [source])
    const warmed = JSON.parse((await env.CONTENT_CACHE.get(PLACEHOLDER_INDEX_KEY)) ?? '{}')
    expect(warmed[source].value).toMatch(/^data:image\/webp;base64,/)
    expect(warmed[source].until).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000)
  })

  it('paints nothing from an index entry that is not a preview this module wrote, and renders through an unreadable index', async () => {
    const source = '/images/banners/about-hero.jpg'
    await fetchPage('/en/about', uncached)
    await env.CONTENT_CACHE.put(
      PLACEHOLDER_INDEX_KEY,
      JSON.stringify({
        [source]: { value: 'red;background:url(https://evil.example/x)', until: Date.now() + 1e9 },
      })
    )
    await newPlaceholdersIsolate()
    const hostile = await fetchPage('/en/about', uncached)
    const html = await hostile.text()
    expect(hostile.status).toBe(200)
    expect(html).not.toContain('evil.example')
    // The entry was no preview, so the source counted as unknown: read from its own key and indexed.
    const index = JSON.parse((await env.CONTENT_CACHE.get(PLACEHOLDER_INDEX_KEY)) ?? '{}')
    expect(index[source].value).toMatch(/^data:image\/webp;base64,/)

    await env.CONTENT_CACHE.put(PLACEHOLDER_INDEX_KEY, '{not json')
    await newPlaceholdersIsolate()
    const unreadable = await fetchPage('/en/about', uncached)
    expect(unreadable.status).toBe(200)
    expect(unreadable.headers.get('ETag')).toMatch(/\.provisional"$/)
    expect(JSON.parse((await env.CONTENT_CACHE.get(PLACEHOLDER_INDEX_KEY)) ?? '{}')).toHaveProperty(
      [source]
    )
  })
})
