/**
 * No broken image, as a visitor scrolls each kind of page to the bottom in Chromium, with camera
 * uploads (4000×3000 JPEGs of 2–6 MB on a CMS origin of their own: scripts/lib/camera-uploads/, and
 * a second `wrangler dev` whose API_HOST is that origin, started here), at 375 px (DPR 2, a phone,
 * which asks for other renditions than DPR 1). Camera uploads are visited on the phone only, as the
 * bench's camera step does: a desktop's renditions of the same photos are other widths made by the
 * same code (a 1920-px AVIF of one costs about 4.4 CPU-s in the local Images binding, a 768-px one
 * 1.2), and the route makes every width of a camera photo in tests/worker/image-route.test.ts; what
 * a desktop adds in a browser is whether the wider AVIFs are made within the route's wait on this
 * machine, a figure that follows its load. Every image the visitor has in view must load
 * (naturalWidth > 0) through the image route. scripts/lib/image-audit.mjs does the scrolling, as it
 * does for `npm run bench`. With camera uploads, photos that never arrive still show the
 * placeholder computed from them at the edge.
 *
 * A page's images follow its kind, not its language (the payloads' language variants share their
 * images), so one page of each kind is loaded here. The bundled content is visitor-pages.spec.ts's:
 * every page in every language at 375 and 1280 px (DPR 1), with the same checks (every image in
 * view loaded, through the image route). Its DPR 2 renditions are other widths of the same
 * originals, made by the same route as the camera photos' here.
 */
import path from 'node:path'
import { startCameraBackend } from '../../scripts/lib/camera-uploads/server.mjs'
import { scrollThroughImages } from '../../scripts/lib/image-audit.mjs'
import { ROOT, serverLogFile, startSite } from '../../scripts/lib/local-site.mjs'
import {
  expect,
  gotoLoaded,
  IMAGE_SCREENS,
  IMAGE_WAIT_MS,
  screenshot,
  test,
  type Page,
} from '../support/e2e/fixtures'
import { ONE_PAGE_OF_EACH_KIND } from '../support/page-addresses'

/** Scrolls `page` through and fails naming every image in view that did not load. */
async function expectNoBrokenImage(page: Page) {
  const { images } = await scrollThroughImages(page, { stepTimeoutMs: IMAGE_WAIT_MS + 15_000 })
  expect(images.length).toBeGreaterThan(0)
  const broken = images
    .filter((image) => image.naturalWidth === 0)
    .map(
      (image) =>
        `${image.className || 'img'}${image.complete ? '' : ' (still loading)'}: ${image.src}`
    )
  expect(broken).toEqual([])
  const elsewhere = images.filter(
    (image) =>
      !new URL(image.src).pathname.startsWith('/_image') && !image.src.endsWith('/logo.png')
  )
  expect(elsewhere.map((image) => image.src)).toEqual([])
}

test.describe('camera uploads', () => {
  // One CMS and one site for all of them, and transforms of 4000-px photos on a shared machine.
  test.describe.configure({ mode: 'serial', timeout: 120_000 + 2 * IMAGE_WAIT_MS })
  let site: Awaited<ReturnType<typeof startSite>> | undefined
  let backend: Awaited<ReturnType<typeof startCameraBackend>> | undefined

  test.beforeAll(async () => {
    test.setTimeout(300_000)
    backend = await startCameraBackend({ port: 0 })
    site = await startSite({
      // No page cache: each visit renders, with the placeholders computed since the last one.
      vars: {
        API_HOST: backend.origin,
        PAGE_CACHE_TTL: '0',
        IMAGE_TRANSFORM_TIMEOUT_MS: String(IMAGE_WAIT_MS),
      },
      persistTo: path.join(ROOT, '.wrangler/state-e2e-camera'),
      logFile: serverLogFile('browser-tests-camera'),
    })
  })

  test.afterAll(async () => {
    await site?.stop()
    await backend?.close()
  })

  for (const address of ONE_PAGE_OF_EACH_KIND) {
    test(`${address} shows every image it scrolls past, at ${IMAGE_SCREENS[0][0]}`, async ({
      browser,
    }) => {
      const context = await browser.newContext({
        ...IMAGE_SCREENS[0][1],
        baseURL: site!.origin,
        serviceWorkers: 'block',
      })
      const failures: string[] = []
      context.on('response', (response) => {
        if (response.status() >= 400 && response.url().startsWith(site!.origin))
          failures.push(`HTTP ${response.status()}: ${response.url()}`)
      })
      const page = await context.newPage()
      await gotoLoaded(page, address)
      await expectNoBrokenImage(page)
      expect(failures).toEqual([])
      await context.close()
    })
  }

  test('/en/about paints each photo with its placeholder while the photos are still on their way', async ({
    browser,
  }) => {
    const context = await browser.newContext({
      ...IMAGE_SCREENS[0][1],
      baseURL: site!.origin,
      serviceWorkers: 'block',
    })
    const page = await context.newPage()
    await page.route('**/_image?**', (route) => route.abort())
    const photos = page.locator(
      'img.page-banner__image, img.wide-banner__image, img.quote-card__image, img.mission-card__image'
    )
    const previews = async () => {
      await page.goto('/en/about', { waitUntil: 'domcontentloaded' })
      const backgrounds = await photos.evaluateAll((images) =>
        images.map((image) => getComputedStyle(image).backgroundImage)
      )
      return (
        backgrounds.filter((background) =>
          /^url\("data:image\/webp;base64,[A-Za-z0-9+/]+=*"\)$/.test(background)
        ).length / backgrounds.length
      )
    }
    // Visits compute the missing ones in the background (a dozen a visit); the visit above did some.
    await expect.poll(previews, { timeout: 120_000, intervals: [2_000] }).toBe(1)
    expect(await photos.count()).toBeGreaterThan(3)
    await screenshot(page, 'camera-placeholders-en-about-375')
    await context.close()
  })
})
