/**
 * The first visitor after a content change, with camera uploads, on a cold site: no 503, no broken
 * image, no transform left for the visitor (decision 0029: the publish hook makes the renditions
 * the changed pages name, after its answer).
 *
 * A site of its own (a second `wrangler dev` with fresh state), which has served no page yet, on
 * the camera-uploads CMS (scripts/lib/camera-uploads/) where the editor has uploaded camera photos
 * (4000×3000 JPEGs of 2–6 MB) for the contact page and the rest of the site still shows the bundled
 * images. The CMS calls the publish hook, signed as it signs it (scripts/lib/publish-signing.mjs),
 * for the contact payload. Every page shows that payload (the footer's contacts), so the warm-up
 * makes the renditions of every page, the contact page's first (decision 0037): its two camera
 * photos in 16 renditions, each a local AVIF transform of a 4000-px photo, then the other pages'
 * bundled images, which the site is stopped before it has all made (some 170 more transforms, most
 * of this spec's CPU before decision 0037). The test then waits, by asking the image route for every address the page names (each width of each `srcset`) with
 * `Cache-Control: only-if-cached` (which never makes one), until every rendition is there. Then a
 * phone (375 px, DPR 2) visits the page for the first time and scrolls to its end: every image
 * the browser asks for is answered 200 from the cache, and every image in view shows.
 *
 * The site's image wait is production's (IMAGE_TRANSFORM_TIMEOUT_MS 20 s); its warm-up budget is
 * stretched (IMAGE_WARM_BUDGET_MS) so that a busy 2-core machine, whose local transforms take
 * seconds, finishes the page: how long a warm-up takes is the bench's business, not this test's.
 */
import { rmSync } from 'node:fs'
import path from 'node:path'
import { startCameraBackend } from '../../scripts/lib/camera-uploads/server.mjs'
import { scrollThroughImages } from '../../scripts/lib/image-audit.mjs'
import { signedJsonHeaders } from '../../scripts/lib/publish-signing.mjs'
import { ROOT, serverLogFile, startSite } from '../../scripts/lib/local-site.mjs'
import { expect, gotoLoaded, IMAGE_SCREENS, screenshot, test } from '../support/e2e/fixtures'

const PUBLISH_SECRET = 'e2e-publish-secret'
/** The page the change is about, and the payload it is rendered from. */
const CHANGED_PAGE = '/ru/contact-us'
const CHANGED_PAYLOAD = 'contact-us' as const
/** How long the warm-up may take on a busy machine: every rendition of the page, transformed locally. */
const WARM_UP_DEADLINE_MS = 900_000
/** Chromium's Accept for images: what the visitor's browser will send. */
const BROWSER_IMAGE_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'

test.describe('the first visit after a publish, with camera uploads', () => {
  test.describe.configure({ mode: 'serial', timeout: WARM_UP_DEADLINE_MS + 300_000 })
  let site: Awaited<ReturnType<typeof startSite>> | undefined
  let backend: Awaited<ReturnType<typeof startCameraBackend>> | undefined

  test.beforeAll(async () => {
    test.setTimeout(300_000)
    backend = await startCameraBackend({ port: 0, uploadsIn: [CHANGED_PAYLOAD] })
    // Cold: a state folder of its own, empty, and no page rendered before the publish (the
    // readiness check asks for robots.txt, which reads no content).
    const state = path.join(ROOT, '.wrangler/state-e2e-after-publish')
    rmSync(state, { recursive: true, force: true })
    site = await startSite({
      vars: {
        API_HOST: backend.origin,
        PUBLISH_SECRET,
        IMAGE_TRANSFORM_TIMEOUT_MS: '20000',
        IMAGE_WARM_BUDGET_MS: String(WARM_UP_DEADLINE_MS),
      },
      persistTo: state,
      logFile: serverLogFile('browser-tests-after-publish'),
      readyPath: '/robots.txt',
    })
  })

  test.afterAll(async () => {
    await site?.stop()
    await backend?.close()
  })

  test(`${CHANGED_PAGE}'s first visitor at ${IMAGE_SCREENS[0][0]} gets every image from the cache, none 503`, async ({
    browser,
    request,
  }) => {
    const origin = site!.origin
    // The CMS's call; the content service may still be starting, so it is repeated until it answers.
    const body = JSON.stringify({ payloads: [CHANGED_PAYLOAD] })
    let report: { changed?: string[] } = {}
    await expect
      .poll(
        async () => {
          const response = await request.post(`${origin}/api/publish`, {
            headers: signedJsonHeaders(PUBLISH_SECRET, body),
            data: body,
            timeout: 300_000,
          })
          if (response.status() === 200) report = await response.json()
          return response.status()
        },
        { timeout: 300_000, intervals: [1_000] }
      )
      .toBe(200)
    expect(report.changed).toEqual([`payload:${CHANGED_PAYLOAD}`])

    // What the page names, read without a browser (rendering a page makes no rendition). React
    // writes `srcSet` and `imageSrcSet`, so the attribute names are matched in any case.
    const html = await (await request.get(`${origin}${CHANGED_PAGE}`)).text()
    const addresses = [...html.matchAll(/(?:src|srcset|imagesrcset|href)="([^"]*)"/gi)]
      .flatMap(([, value]) => value!.replace(/&amp;/g, '&').split(','))
      .map((candidate) => candidate.trim().split(/\s+/)[0]!)
      .filter((address) => address.startsWith('/_image?') && !address.includes('&h='))
    const named = [...new Set(addresses)]
    expect(named.length).toBeGreaterThan(5)

    // The warm-up ends when every rendition is cached: asked without ever making one.
    const notYetCached = async () => {
      const missing: string[] = []
      for (const address of named) {
        const response = await request.get(`${origin}${address}`, {
          headers: { Accept: BROWSER_IMAGE_ACCEPT, 'Cache-Control': 'only-if-cached' },
        })
        if (response.status() !== 200) missing.push(`${response.status()} ${address}`)
      }
      return missing
    }
    await expect
      .poll(notYetCached, { timeout: WARM_UP_DEADLINE_MS, intervals: [2_000] })
      .toEqual([])

    const context = await browser.newContext({
      ...IMAGE_SCREENS[0][1],
      baseURL: origin,
      serviceWorkers: 'block',
    })
    const answers: { status: number; cache: string | null; url: string }[] = []
    context.on('response', (response) => {
      if (new URL(response.url()).pathname === '/_image')
        answers.push({
          status: response.status(),
          cache: response.headers()['x-image-cache'] ?? null,
          url: response.url(),
        })
    })
    const page = await context.newPage()
    await gotoLoaded(page, CHANGED_PAGE)
    const { images } = await scrollThroughImages(page, { stepTimeoutMs: 60_000 })
    await screenshot(page, 'after-publish-ru-contact-us-375')
    await context.close()

    expect(images.length).toBeGreaterThan(0)
    expect(images.filter((image) => image.naturalWidth === 0).map((image) => image.src)).toEqual([])
    expect(answers.length).toBeGreaterThan(0)
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([])
    expect(answers.filter((answer) => answer.cache !== 'hit')).toEqual([])
  })
})
