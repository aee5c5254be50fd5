/**
 * What decides a page's first-load work, checked where it is decided, so that no machine's load
 * can change the answer (docs/decisions/0031-tests-check-causes-the-bench-measures-amounts.md).
 *
 * Decision 0019's font rules are facts of the stylesheet a page serves, read here from Chromium's
 * own parse of it (CSSOM), on one page of each kind (the stylesheet follows the page's kind):
 * - no `local()` before a download: every name in a downloaded face's `src` is a synchronous lookup
 *   in the first layout (on Linux a round trip to the browser process) on every device without it;
 * - one name per fallback font: the metric-matched fallback faces name only the fonts the decision
 *   lists, each once;
 * - one face per subset: each downloaded family has one face per unicode-range, for every weight
 *   from 400 to 700.
 * The figures these rules keep down, the font lookups and the layout and style CPU time beside a
 * plain page's, follow the machine's load (the same page made 25 lookups on a quiet machine and 89
 * on a busy one: how many layouts run before the web fonts arrive decides it), so they are the
 * bench's: `npm run bench:first-load` prints both for every page beside the plain page's.
 */
import { ONE_PAGE_OF_EACH_KIND } from '../support/page-addresses'
import { expect, gotoLoaded, phone, test } from '../support/e2e/fixtures'

/**
 * The system fonts the fallback faces may name (decision 0019): each by its full name, which
 * Chromium, Firefox and WebKit all match; Roboto by its PostScript name too (Android's static and
 * variable builds differ in full name). Another name, an alias of one of these (ArialMT,
 * LiberationSans) or another font (Helvetica, Nimbus Sans), is a failed lookup on most devices.
 */
const FALLBACK_FONT_NAMES = [
  'Arial',
  'Arial Bold',
  'Liberation Sans',
  'Liberation Sans Bold',
  'DejaVu Sans',
  'DejaVu Sans Bold',
  'Roboto',
  'Roboto-Regular',
  'Roboto Bold',
  'Roboto-Bold',
]
/** One face for every weight the pages set (decision 0019: `font-weight: 400 700`). */
const DOWNLOADED_WEIGHTS = '400 700'

type Face = { family: string; style: string; weight: string; range: string; src: string }

test.describe("a page's font faces", () => {
  test.use(phone)

  for (const address of ONE_PAGE_OF_EACH_KIND) {
    test(`${address} serves no local() before a download, one name per fallback font and one face per subset`, async ({
      page,
    }) => {
      // The stylesheet is inlined in the head: parsed by DOMContentLoaded, whatever the images do.
      await page.goto(address, { waitUntil: 'domcontentloaded' })
      // Every @font-face of every stylesheet the page has, as Chromium parsed it.
      const faces: Face[] = await page.evaluate(() => {
        const found: CSSFontFaceRule[] = []
        const walk = (rules: CSSRuleList) => {
          for (const rule of rules) {
            if (rule instanceof CSSFontFaceRule) found.push(rule)
            else if (rule instanceof CSSImportRule && rule.styleSheet)
              walk(rule.styleSheet.cssRules)
            else if (rule instanceof CSSGroupingRule) walk(rule.cssRules)
          }
        }
        for (const sheet of document.styleSheets) walk(sheet.cssRules)
        return found.map((rule) => ({
          family: rule.style.getPropertyValue('font-family').replace(/^["']|["']$/g, ''),
          style: rule.style.getPropertyValue('font-style') || 'normal',
          weight: rule.style.getPropertyValue('font-weight'),
          range: rule.style.getPropertyValue('unicode-range'),
          src: rule.style.getPropertyValue('src'),
        }))
      })
      const localNames = (face: Face) =>
        [...face.src.matchAll(/local\(\s*(["']?)(.*?)\1\s*\)/g)].map((match) => match[2]!)
      const describe = (face: Face) => `${face.family} ${face.weight} ${face.range}: ${face.src}`
      const downloaded = faces.filter((face) => /url\(/.test(face.src))
      const fallbacks = faces.filter((face) => !/url\(/.test(face.src))
      test.info().annotations.push({
        type: 'font faces',
        description: `${downloaded.length} downloaded, ${fallbacks.length} fallback faces naming ${new Set(fallbacks.flatMap(localNames)).size} local() fonts`,
      })
      expect(downloaded.length, 'downloaded faces').toBeGreaterThan(0)
      expect(fallbacks.length, 'metric-matched fallback faces').toBeGreaterThan(0)

      // Each rule on its own: a failure names every face that breaks any of them.
      expect
        .soft(
          downloaded.filter((face) => localNames(face).length > 0).map(describe),
          'downloaded faces that name a local() font first'
        )
        .toEqual([])

      expect
        .soft(
          fallbacks
            .filter(
              (face) =>
                localNames(face).some((name) => !FALLBACK_FONT_NAMES.includes(name)) ||
                new Set(localNames(face)).size !== localNames(face).length
            )
            .map(describe),
          `fallback faces naming a font not in ${FALLBACK_FONT_NAMES.join(', ')}, or one twice`
        )
        .toEqual([])

      const subsets = new Map<string, Face[]>()
      for (const face of downloaded) {
        const key = `${face.family} ${face.style} ${face.range}`
        subsets.set(key, [...(subsets.get(key) ?? []), face])
      }
      expect
        .soft(
          [...subsets.values()].filter((same) => same.length > 1).map((same) => same.map(describe)),
          'subsets with more than one downloaded face'
        )
        .toEqual([])
      expect
        .soft(
          downloaded.filter((face) => face.weight !== DOWNLOADED_WEIGHTS).map(describe),
          `downloaded faces not for every weight from 400 to 700 (${DOWNLOADED_WEIGHTS})`
        )
        .toEqual([])
    })
  }
})

test.describe('the first frame', () => {
  test.use(phone)

  // The pages with parts two screens down on a phone (on the others, the part after the banner is
  // a list that starts on the first screen). The home pages' carousel is one of them.
  for (const address of ['/', '/en/about', '/ru']) {
    test(`${address} lays out its banner first, and the parts below the screen only once they near it`, async ({
      page,
    }) => {
      await gotoLoaded(page, address)
      // Every part of <main> after the banner but the one with the toaster
      // (docs/decisions/0026-islands-skipped-away-from-the-screen.md).
      const farParts = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('main > *')]
            .slice(1)
            .filter((part) => !part.querySelector('.toaster'))
            .filter((part) => part.getBoundingClientRect().top > 2 * innerHeight)
            .map((part) => ({
              part: part.className,
              island: part.querySelector('[data-island]')?.getAttribute('data-island') ?? null,
              // The part itself is laid out (as a box of its remembered or guessed height); its contents are not.
              rendered: (part.firstElementChild ?? part).checkVisibility({
                contentVisibilityAuto: true,
              }),
            }))
        )
      const atLoad = await farParts()
      expect(atLoad.length, 'parts two screens below the top').toBeGreaterThan(0)
      expect(
        atLoad.filter((part) => part.rendered),
        'rendered at load'
      ).toEqual([])
      if (address !== '/en/about') expect(atLoad.map((part) => part.island)).toContain('carousel')
      // Each part, brought to the screen, is rendered (a part left behind may be skipped again).
      for (const { part } of atLoad) {
        const onScreen = () =>
          page.evaluate((part) => {
            const element = [...document.querySelectorAll('main > *')].find(
              (candidate) => candidate.className === part
            )
            element?.scrollIntoView({ behavior: 'instant' })
            return (element?.firstElementChild ?? element)?.checkVisibility({
              contentVisibilityAuto: true,
            })
          }, part)
        await expect.poll(onScreen, { message: `${part} rendered once on screen` }).toBe(true)
      }
    })
  }
})

test.describe("a page's fonts", () => {
  test.use(phone)

  // One page in each language, each with the subsets its text is set in (src/views/assets.tsx).
  for (const [address, subsets] of [
    ['/', ['latin', 'armenian']],
    ['/en/about', ['latin']],
    ['/ru/contact-us', ['latin', 'cyrillic']],
  ] as const) {
    test(`${address} downloads each font it preloads once, and its text is set in them`, async ({
      page,
    }) => {
      await gotoLoaded(page, address)
      await expect
        .poll(() => page.evaluate(() => document.fonts.status), { timeout: 30_000 })
        .toBe('loaded')
      const { preloaded, downloaded, faces } = await page.evaluate(() => ({
        preloaded: [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="font"]')]
          .map((link) => new URL(link.href).pathname)
          .sort(),
        downloaded: performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname)
          .filter((path) => path.startsWith('/assets/fonts/'))
          .sort(),
        // The downloaded faces, not the metric-matched fallbacks (local() faces named "… Fallback …").
        faces: [...document.fonts].filter(
          (face) => face.status === 'loaded' && !face.family.includes('Fallback')
        ).length,
      }))
      expect(
        preloaded.map((path) => subsets.some((subset) => path.includes(`-${subset}-wght-`)))
      ).toEqual(preloaded.map(() => true))
      expect(preloaded).toHaveLength(subsets.length)
      // A preload the @font-face could not reuse (another URL, another CORS mode) is a second download.
      expect(downloaded).toEqual(preloaded)
      expect(faces).toBe(subsets.length)
    })
  }
})
