// @ts-check
/**
 * Every page in every language (200, HTML, its language, canonical address and hreflang
 * alternates, as src/views/document.tsx writes them), the first project's page in every language
 * and its link preview image, security headers, robots.txt, the sitemap and the 404 of an unknown
 * address.
 */
import { hreflangAlternates, LANGUAGES, localizePath } from '../../../src/shared/languages.ts'
import { PAGE_PATHS } from '../../../src/shared/site-paths.ts'

/** Each page's path without language prefix. */
export const PAGE_KEYS = PAGE_PATHS

/** @type {{ key: string, lng: string, path: string }[]} */
export const PAGES = LANGUAGES.flatMap((lng) =>
  PAGE_KEYS.map((key) => ({ key, lng, path: localizePath(key, lng) }))
)

/** Headers every answer of the worker and every static file carries (src/middleware/security-headers/). */
const SECURITY_HEADERS = {
  'Content-Security-Policy': (/** @type {string} */ value) =>
    /default-src 'self'/.test(value) &&
    /frame-ancestors 'none'/.test(value) &&
    !/script-src[^;]*unsafe-inline/.test(value),
  'Strict-Transport-Security': (/** @type {string} */ value) => /max-age=\d{7,}/.test(value),
  'X-Content-Type-Options': (/** @type {string} */ value) => value === 'nosniff',
  'X-Frame-Options': (/** @type {string} */ value) => value === 'DENY',
  'Referrer-Policy': (/** @type {string} */ value) => value === 'strict-origin-when-cross-origin',
  'Permissions-Policy': (/** @type {string} */ value) => /camera=\(\)/.test(value),
  'Cross-Origin-Opener-Policy': (/** @type {string} */ value) => value === 'same-origin',
}

/**
 * @param {import('./http.mjs').Client} client
 * @param {import('./report.mjs').Report} report
 * @param {string} origin
 * @returns {Promise<Map<string, import('./http.mjs').Answer>>} each page's answer, by path
 */
export async function checkPages(client, report, origin) {
  /** @type {Map<string, import('./http.mjs').Answer>} */
  const answers = new Map()
  for (const page of PAGES) await checkPage(client, report, origin, page, answers)
  // The content decides which projects have pages: the first the list links to stands for all.
  const [project] = projectKeysIn(answers.get('/enterprises')?.text ?? '')
  if (!project) {
    report.skip('project pages', 'the enterprises list (/enterprises) links to no project page')
    return answers
  }
  for (const lng of LANGUAGES)
    await checkPage(
      client,
      report,
      origin,
      { key: project, lng, path: localizePath(project, lng) },
      answers
    )
  const answer = answers.get(localizePath(project, 'en'))
  if (answer) await checkSocialCard(client, report, project, answer.text)
  return answers
}

/**
 * The project pages the enterprises list links to (without language prefix), in its order: the
 * rows' titles `href="/enterprises/<slug>"` (src/content/projects.ts).
 * @param {string} html
 * @returns {string[]}
 */
export function projectKeysIn(html) {
  return [
    ...new Set(
      [...html.matchAll(/\shref="(\/enterprises\/[^"/?#]+)"/g)].map(([, key]) => key ?? '')
    ),
  ]
}

/**
 * A link preview's image: og:image fetched as a crawler does (`Accept: *\/*`) is a JPEG or a PNG.
 * @param {import('./http.mjs').Client} client
 * @param {import('./report.mjs').Report} report
 * @param {string} project
 * @param {string} html
 */
async function checkSocialCard(client, report, project, html) {
  const name = `link preview image of /en${project}`
  await report.guard(name, async () => {
    const tag = [...html.matchAll(/<meta[^>]*>/g)]
      .map(([match]) => match)
      .find((match) => attribute(match, 'property') === 'og:image')
    const content = tag ? attribute(tag, 'content') : null
    if (!content) return report.expect(false, name, 'no og:image')
    const url = new URL(content)
    const answer = await client.request(`${url.pathname}${url.search}`, {
      headers: { Accept: '*/*' },
    })
    const type = answer.headers.get('Content-Type') ?? '(none)'
    report.expect(
      answer.status === 200 && /^image\/(jpeg|png)$/.test(type),
      name,
      `${url.pathname}${url.search.slice(0, 60)}...: ${answer.status} ${type}, ${answer.bytes.length} bytes`
    )
  })
}

/**
 * @param {import('./http.mjs').Client} client
 * @param {import('./report.mjs').Report} report
 * @param {string} origin
 * @param {{ key: string, lng: string, path: string }} page
 * @param {Map<string, import('./http.mjs').Answer>} answers
 */
async function checkPage(client, report, origin, page, answers) {
  await report.guard(`page ${page.path}`, async () => {
    const answer = await client.request(page.path)
    answers.set(page.path, answer)
    const html = answer.text
    const lang = /<html[^>]*\blang="([^"]*)"/.exec(html)?.[1] ?? '(none)'
    const canonical = linkHref(html, 'canonical') ?? '(none)'
    const alternates = [...html.matchAll(/<link[^>]*rel="alternate"[^>]*>/g)].map(
      ([tag]) => `${attribute(tag, 'hreflang')}=${attribute(tag, 'href')}`
    )
    const expected = hreflangAlternates(page.key).map(
      ({ hreflang, path }) => `${hreflang}=${origin}${path}`
    )
    const problems = [
      answer.status !== 200 && `status ${answer.status}`,
      !/^text\/html/.test(answer.headers.get('Content-Type') ?? '') &&
        `Content-Type ${answer.headers.get('Content-Type')}`,
      lang !== page.lng && `lang "${lang}", not "${page.lng}"`,
      canonical !== origin + page.path && `canonical ${canonical}, not ${origin + page.path}`,
      [...alternates].sort().join(' ') !== [...expected].sort().join(' ') &&
        `hreflang ${alternates.join(' ') || '(none)'}, not ${expected.join(' ')}`,
    ].filter(Boolean)
    const seen = `${answer.status}, lang ${lang}, canonical ${canonical}, hreflang ${alternates.map((pair) => pair.split('=')[0]).join(' ')} (${answer.ms} ms)`
    report.expect(
      !problems.length,
      `page ${page.path}`,
      problems.length ? problems.join('; ') : seen
    )
  })
}

/**
 * @param {import('./report.mjs').Report} report
 * @param {string} what where the headers came from
 * @param {Headers} headers
 */
export function checkSecurityHeaders(report, what, headers) {
  const wrong = Object.entries(SECURITY_HEADERS)
    .filter(([name, isRight]) => !isRight(headers.get(name) ?? ''))
    .map(([name]) => `${name}: ${headers.get(name) ?? '(missing)'}`)
  report.expect(
    !wrong.length,
    `security headers on ${what}`,
    wrong.length ? wrong.join('; ') : Object.keys(SECURITY_HEADERS).join(', ')
  )
}

/**
 * @param {import('./http.mjs').Client} client
 * @param {import('./report.mjs').Report} report
 * @param {string} origin
 * @param {string[]} [projectKeys] the project pages the enterprises list links to: the sitemap lists them too
 */
export async function checkIndexing(
  client,
  report,
  origin,
  projectKeys = /** @type {string[]} */ ([])
) {
  await report.guard('robots.txt', async () => {
    const robots = await client.request('/robots.txt')
    const sitemapLine = `Sitemap: ${origin}/sitemap.xml`
    report.expect(
      robots.status === 200 && robots.text.includes(sitemapLine),
      'robots.txt',
      `${robots.status}, ${robots.text.includes(sitemapLine) ? `names ${origin}/sitemap.xml` : 'no Sitemap line for this origin'}`
    )
  })
  await report.guard('sitemap.xml', async () => {
    const sitemap = await client.request('/sitemap.xml')
    const listed = [...sitemap.text.matchAll(/<loc>([^<]*)<\/loc>/g)].map(([, loc]) => loc ?? '')
    const expected = [
      ...PAGES.map((page) => page.path),
      ...projectKeys.flatMap((key) => LANGUAGES.map((lng) => localizePath(key, lng))),
    ].map((path) => origin + path)
    const missing = expected.filter((url) => !listed.includes(url))
    const extra = listed.filter((url) => !expected.includes(url))
    const ok =
      sitemap.status === 200 &&
      /xml/.test(sitemap.headers.get('Content-Type') ?? '') &&
      !missing.length &&
      !extra.length
    report.expect(
      ok,
      'sitemap.xml',
      `${sitemap.status}, ${listed.length} pages listed${missing.length ? `; missing ${missing.join(' ')}` : ''}${extra.length ? `; unexpected ${extra.join(' ')}` : ''}`
    )
  })
  await report.guard('unknown address', async () => {
    const path = `/en/smoke-no-such-page-${Date.now().toString(36)}`
    const answer = await client.request(path)
    const ok =
      answer.status === 404 &&
      /^text\/html/.test(answer.headers.get('Content-Type') ?? '') &&
      /<html[^>]*lang="en"/.test(answer.text)
    report.expect(
      ok,
      'unknown address',
      `${path}: ${answer.status} ${answer.headers.get('Content-Type') ?? ''}${ok ? ', the English error page' : ''}`
    )
  })
}

/** @param {string} html @param {string} rel */
function linkHref(html, rel) {
  const tag = [...html.matchAll(/<link[^>]*>/g)]
    .map(([match]) => match)
    .find((match) => attribute(match, 'rel') === rel)
  return tag ? attribute(tag, 'href') : null
}

/** An attribute's value in one tag, with the entities React writes in attributes decoded. */
export function attribute(/** @type {string} */ tag, /** @type {string} */ name) {
  const value = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1]
  return value === undefined
    ? null
    : value
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
}
