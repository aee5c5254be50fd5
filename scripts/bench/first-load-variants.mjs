/**
 * Where a page's first load goes, for the `first-load` step: the same page's HTML with
 * one of its costs taken out, each measured beside the page as served and the plain page, in the
 * same run. Not a target: what a figure would be without the web fonts (every `@font-face` rule,
 * the font stack set to the system's `sans-serif`) or without the whole-words size containers
 * (decision 0008), so that the gap to the plain page can be read as its parts.
 *
 * The bench's browser gets each variant by request interception: the page's HTML, fetched once from
 * the site, is answered at the page's own address (every other request goes to the site), so the
 * page's images, fonts and scripts load as they do for a visitor. The page as served is answered the
 * same way, as the reference the variants are read against.
 */

/** @param {string} html @param {(css: string) => string} change the inlined stylesheet changed */
function withStyle(html, change) {
  return html.replace(/<style>([\s\S]*?)<\/style>/, (_, css) => `<style>${change(css)}</style>`)
}

/** @param {string} css */
const withoutWebFonts = (css) =>
  css
    .replace(/@font-face\s*\{[^}]*\}/g, '')
    .replace(/--font-sans:[^;]*;/, '--font-sans: sans-serif;')

/** @param {string} css */
const withoutSizeContainers = (css) => css.replace(/container-type:\s*inline-size;?/g, '')

/** Each variant's name and how it changes a page's HTML. */
export const PAGE_VARIANTS = {
  'as served': (/** @type {string} */ html) => html,
  'system fonts': (/** @type {string} */ html) => withStyle(html, withoutWebFonts),
  'no size containers': (/** @type {string} */ html) => withStyle(html, withoutSizeContainers),
  'system fonts, no size containers': (/** @type {string} */ html) =>
    withStyle(html, (css) => withoutSizeContainers(withoutWebFonts(css))),
}

/**
 * Answers the navigation to `url` with `body` in `page`; every other request goes on as it would.
 * @param {import('puppeteer-core').Page} page
 * @param {{ url: string, body: string }} answer
 */
export async function answerNavigation(page, { url, body }) {
  await page.setRequestInterception(true)
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.url() === url)
      void request.respond({ status: 200, contentType: 'text/html; charset=utf-8', body })
    else void request.continue()
  })
}
