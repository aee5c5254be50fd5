/**
 * Renditions made after a content change, before visitors ask (src/images/warm-renditions.ts,
 * docs/decisions/0029-renditions-warmed-after-a-change.md): the publish hook's change makes exactly
 * the renditions the changed pages name, in the format browsers get, into the cache the route
 * reads, and nothing for payloads that did not change; a warm-up is bounded; and the transform
 * slots serve visitors in the order they came, before any warm-up (src/images/transform.ts).
 * Transforms are counted through the Images binding the worker is given.
 */
import { waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import type { Bindings } from '../../src/env'
import worker from '../../src/index'
import { MAX_ORIGINAL_BYTES } from '../../src/images/limits'
import { readImageAddress } from '../../src/images/image-url'
import { acquireTransformSlot, type TransformSlot } from '../../src/images/transform'
import {
  imageAddresses,
  MAX_RENDITIONS_PER_CHANGE,
  warmChangedRenditions,
  warmRenditions,
  WARM_ACCEPT,
} from '../../src/images/warm-renditions'
import { isPagePath } from '../../src/routes/pages'
import { PAGE_PATHS } from '../../src/shared/site-paths'
import { json, samplePayloads } from '../support/worker/fake-backend'
import { contextWithWorkersCache } from '../support/worker/freshness'
import {
  ACCEPT,
  decodeBase64,
  fakeCms,
  fetchImage,
  imageInfo,
  serveBytes,
} from '../support/worker/images'
import { fetchPage } from '../support/worker/worker'
import { signedNow } from '../support/worker/signed-call'

const SECRET = 'warm-test-secret'
/** A busy 2-core machine transforms locally, in seconds each: generous deadlines. */
const SLOW = { timeout: 600_000 }
/** A small photo: these tests count transforms, and need not wait seconds for each. */
const photo = decodeBase64(env.TEST_IMAGES.smallJpeg)
let clients = 0

/** Width of a placeholder (src/images/placeholders.ts): those transforms are not renditions. */
const PLACEHOLDER_WIDTH = 16

/** The real local binding, counting the renditions it is asked to make (placeholders aside). */
function countingImages() {
  const counts = { transforms: 0 }
  const binding = {
    info: (stream: ReadableStream<Uint8Array>) => env.IMAGES.info(stream),
    input(stream: ReadableStream<Uint8Array>) {
      const input = env.IMAGES.input(stream)
      return {
        transform(options: ImageTransform) {
          if (options.width !== PLACEHOLDER_WIDTH) counts.transforms++
          return input.transform(options)
        },
      }
    },
  } as unknown as ImagesBinding
  return { binding, counts }
}

/**
 * A home payload showing `files` from the CMS: the first in its banner, the second (or about.jpg)
 * in its about block. With the enterprises payload's card on the CMS too, the home page names CMS
 * photos only, never a bundled image another test may have made already: every rendition it names
 * is this test's.
 */
function homeShowing(url: (file: string) => string, files: string[]) {
  const home = samplePayloads['get-home-page'] as Record<string, unknown>
  const [banner, about = 'about.jpg'] = files
  return json({
    payload: {
      ...home,
      banner: [{ title: 'Slide', img: url(banner!) }],
      aboutHome: { title: 'About', img: url(about) },
    },
  })
}

function enterprisesShowing(url: (file: string) => string) {
  const page = samplePayloads['get-enterprises-page'] as { enterprises: object[] }
  return json({
    payload: {
      ...page,
      enterprises: page.enterprises.map((item) => ({ ...item, img: url('card.jpg') })),
    },
  })
}

/** Calls the hook as a CMS would, and waits for what it does after its answer. */
async function publish(bindings: Bindings, payloads: string[]) {
  const body = JSON.stringify({ payloads })
  const { ctx } = contextWithWorkersCache()
  const response = await worker.fetch(
    new Request('http://localhost/api/publish', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'CF-Connecting-IP': `2001:db8:29::${++clients}`,
        ...(await signedNow(SECRET, body)),
      },
      body,
    }),
    bindings,
    ctx
  )
  const report = await response.json<{ changed: string[] }>()
  await waitOnExecutionContext(ctx)
  return { status: response.status, changed: report.changed }
}

/**
 * A site on a fake CMS with `files`, its transforms counted; the page cache off, and a warm-up's
 * time budget far beyond what a busy machine needs, so that only the count bounds it.
 */
function siteWith(files: string[]) {
  const images = countingImages()
  const answers: Parameters<typeof fakeCms>[0] = {}
  const cms = fakeCms(answers, {
    PUBLISH_SECRET: SECRET,
    IMAGES: images.binding,
    PAGE_CACHE_TTL: '0',
    IMAGE_WARM_BUDGET_MS: '600000',
  })
  const show = (shown: string[]) => {
    answers['get-home-page'] = homeShowing(cms.url, shown)
    for (const file of [...shown, 'about.jpg', 'card.jpg']) answers[file] = serveBytes(photo)
  }
  answers['get-enterprises-page'] = enterprisesShowing(cms.url)
  show(files)
  return { cms, answers, images, show, bindings: cms.bindings }
}

/** The distinct image addresses of `paths`' pages, as the worker renders them now. */
async function addressesOf(paths: string[], bindings: Bindings): Promise<string[]> {
  const pages = await Promise.all(paths.map((path) => fetchPage(path, bindings)))
  const htmls = await Promise.all(pages.map((page) => page.text()))
  return [...new Set(htmls.flatMap((html) => imageAddresses(html)))]
}

/** The distinct image addresses of the home page in every language. */
function homeAddresses(bindings: Bindings): Promise<string[]> {
  return addressesOf(['/', '/en', '/ru'], bindings)
}

/** Whether each of `addresses` is cached, asked as only-if-cached (which never makes one): its status. */
async function cachedStatuses(addresses: string[], bindings: Bindings): Promise<number[]> {
  const statuses: number[] = []
  for (const address of addresses) {
    const { response } = await fetchImage(address, bindings, ACCEPT.avif, {
      'Cache-Control': 'only-if-cached',
    })
    statuses.push(response.status)
  }
  return statuses
}

/**
 * Waits until every one of `addresses` is cached: the condition that a warm-up ended (it runs after
 * the hook's answer, longer than the test runtime's own wait for background work on a busy machine).
 */
async function untilCached(addresses: string[], bindings: Bindings): Promise<void> {
  await vi.waitFor(
    async () =>
      expect((await cachedStatuses(addresses, bindings)).every((s) => s === 200)).toBe(true),
    { timeout: 540_000, interval: 500 }
  )
}

/** The renditions behind `addresses`: one per source and width. */
function renditionsOf(addresses: string[], sourcePrefix: string): Set<string> {
  const made = new Set<string>()
  for (const address of addresses) {
    const read = readImageAddress(new URL(address, 'http://localhost'))
    if (read.ok && !read.card && read.src.startsWith(sourcePrefix))
      made.add(`${read.src} ${read.width}`)
  }
  return made
}

describe('transform slots', () => {
  /** Resolves, in order, the names of the waiters as they get a slot. */
  function waitFor(name: string, order: string[], priority: 'visitor' | 'background') {
    return acquireTransformSlot(Date.now() + 30_000, MAX_ORIGINAL_BYTES, priority).then((slot) => {
      order.push(name)
      return slot!
    })
  }

  it('go to visitors in the order they came, and to background work only when no visitor waits', async () => {
    const order: string[] = []
    // A slot of the largest original: nothing else fits beside it.
    const first = (await acquireTransformSlot(Date.now() + 30_000, MAX_ORIGINAL_BYTES))!
    const warm = waitFor('warm-up', order, 'background')
    const visitorA = waitFor('visitor A', order, 'visitor')
    const visitorB = waitFor('visitor B', order, 'visitor')
    first.release()
    const holding: TransformSlot[] = [await visitorA]
    expect(order).toEqual(['visitor A'])
    holding.shift()!.release()
    holding.push(await visitorB)
    expect(order).toEqual(['visitor A', 'visitor B'])
    holding.shift()!.release()
    ;(await warm).release()
    expect(order).toEqual(['visitor A', 'visitor B', 'warm-up'])
  })

  it('a waiting visitor is not passed by a warm-up that came later', async () => {
    const order: string[] = []
    const first = (await acquireTransformSlot(Date.now() + 30_000, MAX_ORIGINAL_BYTES))!
    const visitor = waitFor('visitor', order, 'visitor')
    const warm = waitFor('warm-up', order, 'background')
    first.release()
    ;(await visitor).release()
    ;(await warm).release()
    expect(order).toEqual(['visitor', 'warm-up'])
  })
})

describe('renditions after a content change', () => {
  it(
    'a publish that changes the home page makes every rendition the page names, once, and its first visitor gets each from the cache',
    SLOW,
    async () => {
      const site = siteWith(['hero-1.jpg', 'hero-2.jpg'])
      const { changed } = await publish(site.bindings, ['get-home-page'])
      expect(changed).toEqual(['payload:get-home-page'])
      const addresses = await homeAddresses(site.bindings)
      await untilCached(addresses, site.bindings)
      const afterWarmUp = site.images.counts.transforms

      // Each photo at every width of its srcset (the banner's preload names the same), and the
      // bundled image the enterprises section shows: one rendition made per source and width the
      // pages name, each transformed once. (Nothing was cached before: the file's storage starts
      // empty, and this is its first warm-up.)
      for (const file of ['hero-1.jpg', 'hero-2.jpg'])
        expect(renditionsOf(addresses, site.cms.url(file)).size, file).toBeGreaterThan(1)
      expect(afterWarmUp).toBe(renditionsOf(addresses, '').size)
      for (const address of addresses) {
        const { response, bytes } = await fetchImage(address, site.bindings, ACCEPT.avif)
        expect(response.status, address).toBe(200)
        expect(response.headers.get('X-Image-Cache'), address).toBe('hit')
        expect((await imageInfo(bytes)).format, address).toBe('image/avif')
      }
      // The visitor's requests transformed nothing.
      expect(site.images.counts.transforms).toBe(afterWarmUp)
    }
  )

  it(
    'a change to the contact payload, which every footer shows, makes the contact page’s renditions before any other page’s',
    SLOW,
    async () => {
      // A banner no other test shows: its renditions are this test's to make, or not.
      const site = siteWith(['hero-contact-first.jpg'])
      const contact = samplePayloads['contact-us'] as Record<string, unknown>
      site.answers['contact-us'] = json({
        payload: {
          ...contact,
          firstBanner: site.cms.url('office-1.jpg'),
          secondBanner: site.cms.url('office-2.jpg'),
        },
      })
      for (const file of ['office-1.jpg', 'office-2.jpg']) site.answers[file] = serveBytes(photo)
      const contactPage = await addressesOf(
        ['/contact-us', '/en/contact-us', '/ru/contact-us'],
        site.bindings
      )
      const banner = (await homeAddresses(site.bindings)).filter((a) =>
        a.includes('hero-contact-first.jpg')
      )
      expect(renditionsOf(contactPage, site.cms.url('office-')).size).toBeGreaterThan(2)
      expect(banner.length).toBeGreaterThan(1)

      // Room for the contact page's renditions only: every page shows the changed payload, and
      // the home page comes first in the navbar, but the contact page's are the ones made.
      const limit = renditionsOf(contactPage, '').size
      const ctx = contextWithWorkersCache().ctx
      const report = await warmChangedRenditions({
        changedTags: ['payload:contact-us'],
        pagePaths: PAGE_PATHS,
        isPage: isPagePath,
        render: async (path) =>
          worker.fetch(
            new Request(new URL(path, 'http://localhost'), { headers: { Accept: 'text/html' } }),
            site.bindings,
            ctx
          ),
        context: {
          env: site.bindings,
          origin: 'http://localhost',
          waitUntil: (promise) => ctx.waitUntil(promise),
          report: () => {},
        },
        limit,
      })
      await waitOnExecutionContext(ctx)
      expect(report.pages.slice(0, 3).sort()).toEqual([
        '/contact-us',
        '/en/contact-us',
        '/ru/contact-us',
      ])
      expect(report.pages.length).toBeGreaterThan(3)
      expect(report.outcomes.made).toBe(limit)
      expect(await cachedStatuses(contactPage, site.bindings)).toEqual(contactPage.map(() => 200))
      expect(await cachedStatuses(banner, site.bindings)).toEqual(banner.map(() => 504))
    }
  )

  it('only-if-cached answers 504 for a rendition nobody made, and makes none', SLOW, async () => {
    const site = siteWith(['hero-1.jpg'])
    const [address] = (await homeAddresses(site.bindings)).filter((a) => a.includes('hero-1.jpg'))
    const { response, text } = await fetchImage(address!, site.bindings, ACCEPT.avif, {
      'Cache-Control': 'only-if-cached',
    })
    expect(response.status).toBe(504)
    expect(response.headers.get('X-Image-Reason')).toBe('not-cached')
    expect(text()).toBe('This image has not been prepared yet.\n')
    expect(site.images.counts.transforms).toBe(0)
  })

  it('a publish whose payloads did not change makes no rendition', SLOW, async () => {
    const site = siteWith(['hero-1.jpg'])
    await publish(site.bindings, ['get-home-page'])
    await untilCached(await homeAddresses(site.bindings), site.bindings)
    const before = { transforms: site.images.counts.transforms, calls: site.cms.calls.length }
    expect(before.transforms).toBeGreaterThan(0)

    const again = await publish(site.bindings, ['get-home-page', 'navbar-data'])
    expect(again.status).toBe(200)
    expect(again.changed).toEqual([])
    expect(site.images.counts.transforms).toBe(before.transforms)
    // The payloads were asked for again; no image was.
    const asked = site.cms.calls.slice(before.calls).map(({ url }) => url.pathname)
    expect(asked.length).toBeGreaterThan(0)
    expect(asked.filter((pathname) => pathname.includes('/uploads/'))).toEqual([])
  })

  it('a change that adds a photo makes only the new photo’s renditions', SLOW, async () => {
    const site = siteWith(['hero-1.jpg'])
    await publish(site.bindings, ['get-home-page'])
    await untilCached(await homeAddresses(site.bindings), site.bindings)
    const before = site.images.counts.transforms

    site.show(['hero-1.jpg', 'hero-3.jpg'])
    const { changed } = await publish(site.bindings, ['get-home-page'])
    expect(changed).toEqual(['payload:get-home-page'])
    const addresses = await homeAddresses(site.bindings)
    await untilCached(addresses, site.bindings)

    const added = renditionsOf(addresses, site.cms.url('hero-3.jpg'))
    expect(added.size).toBeGreaterThan(1)
    expect(site.images.counts.transforms - before).toBe(added.size)
  })

  it('a warm-up makes at most its bound and leaves the rest for visitors', SLOW, async () => {
    const site = siteWith(['hero-1.jpg', 'hero-2.jpg'])
    // The addresses as the home page names them, before any publish: nothing is cached yet.
    const addresses = await homeAddresses(site.bindings)
    const html = addresses.map((address) => `<img src="${address.replace(/&/g, '&amp;')}">`)
    const ctx = contextWithWorkersCache().ctx
    const limit = 3
    const { named, outcomes } = await warmRenditions(
      [{ html: html.join('') }],
      {
        env: site.bindings,
        origin: 'http://localhost',
        waitUntil: (promise) => ctx.waitUntil(promise),
        report: () => {},
      },
      Date.now() + 60_000,
      limit
    )
    await waitOnExecutionContext(ctx)
    expect(named).toBe(addresses.length)
    expect(named).toBeGreaterThan(limit)
    expect(site.images.counts.transforms).toBe(limit)
    expect(outcomes.made).toBe(limit)
    expect(outcomes['over-bound']).toBe(named - limit - outcomes.cached)
    expect(MAX_RENDITIONS_PER_CHANGE).toBeGreaterThanOrEqual(100)
  })

  it('is made in the format every current browser is answered with: AVIF', SLOW, async () => {
    expect(WARM_ACCEPT).toMatch(/image\/avif/)
    const site = siteWith(['hero-1.jpg'])
    await publish(site.bindings, ['get-home-page'])
    const addresses = await homeAddresses(site.bindings)
    await untilCached(addresses, site.bindings)
    const [address] = addresses.filter((a) => a.includes('hero-1.jpg'))
    // Safari before AVIF asks for WebP: not made ahead, transformed on its first request.
    const before = site.images.counts.transforms
    const webp = await fetchImage(address!, site.bindings, ACCEPT.webp)
    expect(webp.response.headers.get('X-Image-Cache')).toBe('miss')
    expect(site.images.counts.transforms).toBe(before + 1)
  })
})
