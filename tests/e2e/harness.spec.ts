/**
 * Self-tests of the browser harness: the server under test answers, and each fixture and helper in
 * fixtures.ts does what it says. Apart from the first test, pages here are served by `page.route`
 * on the site's own origin, so these pass whatever state the site is in.
 */
import { existsSync, statSync } from 'node:fs'
import { expect, gotoLoaded, phone, screenshot, test, viewports } from '../support/e2e/fixtures'

/** Serves `html` at `path` on the site's origin, without reaching the server. */
async function serve(
  page: import('../support/e2e/fixtures').Page,
  path: string,
  html: string,
  status = 200
) {
  await page.route(`**${path}`, (route) =>
    route.fulfill({ status, contentType: 'text/html; charset=utf-8', body: html })
  )
}

test.describe('the harness', () => {
  test('reaches the server under test and gets a response for /', async ({ browser, baseURL }) => {
    // A bare context: this checks the plumbing (server started, browser launched), not the site.
    const context = await browser.newContext({ baseURL })
    const page = await context.newPage()
    const response = await page.goto('/')
    expect(response, 'a response for /').not.toBeNull()
    expect(response!.status()).toBeGreaterThanOrEqual(100)
    expect((await response!.body()).length).toBeGreaterThan(0)
    test.info().annotations.push({ type: 'server', description: `GET / -> ${response!.status()}` })
    await context.close()
  })

  test('collects console errors, page errors and failed same-origin requests', async ({
    page,
    pageProblems,
  }) => {
    await page.route('**/__harness/missing.png', (route) =>
      route.fulfill({ status: 404, body: '' })
    )
    await page.route('**/__harness/expected.png', (route) =>
      route.fulfill({ status: 404, body: '' })
    )
    await serve(
      page,
      '/__harness/problems',
      `<!doctype html><title>problems</title>
       <img src="/__harness/missing.png"><img src="/__harness/expected.png">
       <script>console.error('boom'); setTimeout(() => { throw new Error('uncaught') })</script>`
    )
    pageProblems.allow('/__harness/expected.png', 404)
    const uncaught = page.waitForEvent('pageerror')
    await page.goto('/__harness/problems')
    await uncaught

    const problems = pageProblems.take()
    expect(problems).toHaveLength(3)
    expect(problems).toContainEqual(expect.stringMatching(/^console error: boom/))
    expect(problems).toContainEqual(expect.stringMatching(/^page error: Error: uncaught/))
    expect(problems).toContainEqual(
      expect.stringMatching(/^HTTP 404: GET .*\/__harness\/missing\.png$/)
    )
  })

  test('fails a test whose page logged an error (an expected failure, shown as ✘)', async ({
    page,
  }) => {
    test.fail(
      true,
      'the page fixture must turn a console error into a failure at the end of the test'
    )
    await serve(
      page,
      '/__harness/console-error',
      `<!doctype html><script>console.error('boom')</script>`
    )
    await page.goto('/__harness/console-error')
  })

  test('returns from gotoLoaded after the load event, with the module scripts run', async ({
    page,
  }) => {
    let releaseImage = () => {}
    const imageHeld = new Promise<void>((resolve) => (releaseImage = resolve))
    await page.route('**/__harness/slow.svg', async (route) => {
      await imageHeld
      await route.fulfill({
        contentType: 'image/svg+xml',
        body: '<svg xmlns="http://www.w3.org/2000/svg"/>',
      })
    })
    await serve(
      page,
      '/__harness/loading',
      `<!doctype html><title>loading</title><img src="/__harness/slow.svg" alt="">
       <script type="module">document.title = 'module ran'</script>`
    )
    let returned = false
    const navigation = gotoLoaded(page, '/__harness/loading').then((response) => {
      returned = true
      return response
    })
    // The module script has run, but the image holds the load event: gotoLoaded has not returned.
    await expect(page).toHaveTitle('module ran')
    expect(returned).toBe(false)
    releaseImage()
    const response = await navigation
    expect(response.status()).toBe(200)
    expect(await page.evaluate(() => document.readyState)).toBe('complete')
  })

  test('runs no scripts in noJsPage', async ({ noJsPage }) => {
    await serve(
      noJsPage,
      '/__harness/no-js',
      `<!doctype html><title>no js</title><script>document.title = 'js ran'</script><noscript><p>no script</p></noscript>`
    )
    await noJsPage.goto('/__harness/no-js')
    await expect(noJsPage).toHaveTitle('no js')
    await expect(noJsPage.getByText('no script')).toBeVisible()
  })

  test('opens pages at the desktop size by default', async ({ page }) => {
    await serve(
      page,
      '/__harness/size',
      `<!doctype html><meta name="viewport" content="width=device-width">`
    )
    await page.goto('/__harness/size')
    expect(await page.evaluate(() => [innerWidth, innerHeight])).toEqual([
      viewports.desktop.width,
      viewports.desktop.height,
    ])
  })

  test.describe('with the phone preset', () => {
    test.use(phone)

    test('opens pages at 375x812 with touch', async ({ page }) => {
      await serve(
        page,
        '/__harness/size',
        `<!doctype html><meta name="viewport" content="width=device-width">`
      )
      await page.goto('/__harness/size')
      expect(await page.evaluate(() => [innerWidth, innerHeight])).toEqual([
        viewports.phone.width,
        viewports.phone.height,
      ])
      expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true)
    })
  })

  test('writes screenshots of Armenian and Cyrillic text to tests/e2e/screenshots only when the run asks (E2E_SCREENSHOTS=1)', async ({
    page,
  }) => {
    await serve(
      page,
      '/__harness/scripts',
      `<!doctype html><html lang="hy"><meta charset="utf-8"><body style="font: 40px sans-serif">
       <p>Բարև</p><p lang="ru">Привет</p><p lang="en">Hello</p></body></html>`
    )
    await page.goto('/__harness/scripts')
    const asked = process.env.E2E_SCREENSHOTS
    try {
      delete process.env.E2E_SCREENSHOTS
      expect(await screenshot(page, 'harness-scripts-not-asked')).toBeNull()
      process.env.E2E_SCREENSHOTS = '1'
      const file = await screenshot(page, 'harness-scripts')
      expect(file).not.toBeNull()
      expect(existsSync(file!)).toBe(true)
      expect(statSync(file!).size).toBeGreaterThan(1000)
    } finally {
      if (asked === undefined) delete process.env.E2E_SCREENSHOTS
      else process.env.E2E_SCREENSHOTS = asked
    }
  })
})
