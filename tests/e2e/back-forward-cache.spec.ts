/**
 * The back/forward cache keeps every page: the visitor goes through one page of each
 * kind, hydrated, then back to the first and forward to the last again, and every page comes back
 * from the cache (`pageshow` with `persisted` true) each time, not loaded again. Nothing on a page
 * may block it: no `unload` handler, no `Cache-Control: no-store` on a page, no connection left
 * open. What could block it is what a page runs and keeps open: its islands (every page has the
 * navbar's and back-to-top; the home page adds the carousel, the contact page the form) and its
 * headers, which are the same for every page. So the walk takes one page per island set, in all
 * three languages, and the about, enterprises and project pages (the same islands):
 * ONE_PAGE_OF_EACH_KIND, walked forward and back. The contact page is checked after a sent message too: sent by the island (fetch),
 * and sent by the plain form, whose POST answers 303 (`no-store`) to `?sent=1`, a page like any other.
 *
 * Playwright launches Chromium with --disable-back-forward-cache; this spec drops that flag. The
 * Chromium must have the cache at all: the @sparticuz/chromium build disables it for its embedder
 * (`BackForwardCacheDisabledForDelegate`), Debian's `chromium` has it (scripts/lib/chromium-path.mjs
 * prefers it; `npm test` installs it), and the failure message repeats Chromium's reason.
 */
import type { CDPSession, Page } from '@playwright/test'
import { CHROMIUM_ARGS } from '../../scripts/lib/chromium-path.mjs'
import { ONE_PAGE_OF_EACH_KIND } from '../support/page-addresses'
import { expect, gotoLoaded, test } from '../support/e2e/fixtures'

// One page load with hydration per page of the walk, and its traversals: a first visit of the run, on a busy
// machine, renders the pages and transforms their images first.
test.describe.configure({ timeout: 120_000 })

/** One page of each kind, in the three languages: the carousel, the base set, the form, the base set twice. */
const WALK = ONE_PAGE_OF_EACH_KIND

test.use({
  launchOptions: {
    executablePath: process.env.E2E_CHROMIUM,
    args: CHROMIUM_ARGS,
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  },
})

/** Every `pageshow` of the page's documents, in `window.__pageshows`: `persisted` of each. */
async function recordPageShows(page: Page): Promise<CDPSession> {
  await page.addInitScript(() => {
    const shows: boolean[] = []
    Object.assign(window, { __pageshows: shows })
    addEventListener('pageshow', (event) => shows.push(event.persisted))
  })
  // Chromium says why a page was not restored; the failure message repeats it.
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Page.enable')
  return cdp
}

/** Why Chromium did not keep the pages it was asked to restore, as it reports them. */
function collectNotRestoredReasons(cdp: CDPSession): string[] {
  const reasons: string[] = []
  cdp.on('Page.backForwardCacheNotUsed', (event) => {
    reasons.push(
      ...event.notRestoredExplanations.map(
        (explanation) => `${explanation.reason} (${explanation.type})`
      )
    )
  })
  return reasons
}

/**
 * Goes back (or forward) and requires the page to come from the back/forward cache: its document
 * is the one shown before, which counts one more `pageshow` (`shows`: how many it has had, the
 * first being its own load), and that one is `persisted`. A page loaded again has one only and
 * fails after the wait, which only a failing run waits out.
 */
async function traverseExpectingRestore(
  page: Page,
  direction: 'back' | 'forward',
  address: string,
  reasons: string[],
  shows = 2
): Promise<void> {
  // A restored page fires no load event: wait for the commit, then for its pageshow.
  if (direction === 'back') await page.goBack({ waitUntil: 'commit' })
  else await page.goForward({ waitUntil: 'commit' })
  await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe(address)
  const restored = await page
    .waitForFunction(
      (count) => (window as unknown as { __pageshows: boolean[] }).__pageshows.length >= count,
      shows,
      { timeout: 15_000 }
    )
    .then(
      () => true,
      () => false
    )
  const persisted =
    restored &&
    (await page.evaluate(() =>
      (window as unknown as { __pageshows: boolean[] }).__pageshows.at(-1)
    ))
  const noCache = reasons.some((reason) => reason.startsWith('BackForwardCacheDisabledForDelegate'))
  const hint = noCache
    ? ` (the Chromium at ${process.env.E2E_CHROMIUM} has no back/forward cache: \`npm test\` installs Debian's, or sudo apt-get install -y chromium)`
    : ''
  expect(
    persisted,
    `${direction} to ${address}: not restored from the back/forward cache: ${reasons.join(', ') || 'no reason given'}${hint}`
  ).toBe(true)
}

test(`${WALK.join(', ')}: each comes back from the back/forward cache, going back to the first and forward to the last`, async ({
  page,
}) => {
  const reasons = collectNotRestoredReasons(await recordPageShows(page))
  for (const address of WALK) await gotoLoaded(page, address)
  // Back: each page shown a second time; forward: the ones left behind, a third (the last, a second).
  for (const address of WALK.slice(0, -1).reverse())
    await traverseExpectingRestore(page, 'back', address, reasons, 2)
  for (const [index, address] of WALK.slice(1).entries())
    await traverseExpectingRestore(
      page,
      'forward',
      address,
      reasons,
      index === WALK.length - 2 ? 2 : 3
    )
})

test.describe('the contact page after a sent message', () => {
  test.beforeEach(async ({ page }) => {
    // Its own client address: the rate limit (5 a minute) counts this test apart.
    await page.setExtraHTTPHeaders({
      'CF-Connecting-IP': `e2e-bfcache-${process.pid}-${Date.now()}`,
    })
  })

  async function fillForm(page: Page): Promise<void> {
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Anna Petrova')
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('anna@example.com')
    await page
      .getByRole('textbox', { name: 'Message', exact: true })
      .fill(`Back/forward cache check ${Date.now()}`)
  }

  test('sent by the island, comes back from the back/forward cache', async ({ page }) => {
    const reasons = collectNotRestoredReasons(await recordPageShows(page))
    await gotoLoaded(page, '/en/contact-us')
    await fillForm(page)
    const answer = page.waitForResponse('**/api/contact')
    await page.getByRole('button', { name: 'Send Message' }).click()
    expect((await answer).status()).toBe(200)
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('')
    await gotoLoaded(page, '/en')
    await traverseExpectingRestore(page, 'back', '/en/contact-us', reasons)
  })

  test('sent by the plain form (303 to ?sent=1), comes back from the back/forward cache', async ({
    page,
  }) => {
    const reasons = collectNotRestoredReasons(await recordPageShows(page))
    await gotoLoaded(page, '/en/contact-us')
    await fillForm(page)
    // The form's own submission, as without JavaScript: submit() skips the island's handler.
    const redirect = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && response.url().endsWith('/en/contact-us')
    )
    await page.evaluate(() => HTMLFormElement.prototype.submit.call(document.querySelector('form')))
    expect((await redirect).status()).toBe(303)
    await page.waitForURL('**/en/contact-us?sent=1', { waitUntil: 'load' })
    await gotoLoaded(page, '/en/about')
    await traverseExpectingRestore(page, 'back', '/en/contact-us?sent=1', reasons)
  })
})
