// @ts-check
/**
 * Caching as a visitor meets it: a page's second request is served by the cache in front of the
 * worker, which answers decision 0017's open question (does Workers Cache honour
 * `Cloudflare-CDN-Cache-Control`? Pages tell browsers `max-age=0, must-revalidate` and the edge
 * `max-age=PAGE_CACHE_TTL, stale-while-revalidate=604800, stale-if-error=604800` there); a matching `If-None-Match` gets 304;
 * a page image's rendition comes back as AVIF to a browser that accepts it, and from a cache the
 * second time. The image address is the one the page's HTML gives, whatever its form.
 */
import { sleep } from './http.mjs'
import { attribute, checkSecurityHeaders } from './pages.mjs'
import { frontCacheVerdict, isBehindCloudflare, NOT_BEHIND_CLOUDFLARE } from './platform.mjs'

/** What a browser that decodes AVIF sends (Chromium's image Accept). */
const AVIF_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'
/** Repeats of a request while a cache in front may still be storing the first answer. */
const CACHE_ATTEMPTS = 3

/**
 * @param {import('./http.mjs').Client} client
 * @param {import('./report.mjs').Report} report
 * @param {string} path a page
 */
export async function checkPageCaching(client, report, path) {
  const name = `page served by the cache in front (Cloudflare-CDN-Cache-Control honoured), ${path}`
  await report.guard(name, async () => {
    const first = await client.request(path)
    const cacheControl = first.headers.get('Cache-Control') ?? '(none)'
    const edge = first.headers.get('Cloudflare-CDN-Cache-Control')
    if (!isBehindCloudflare(first.headers))
      return report.skip(
        name,
        `${NOT_BEHIND_CLOUDFLARE}; the page says Cache-Control: ${cacheControl}${edge ? `, Cloudflare-CDN-Cache-Control: ${edge}` : ''}`
      )
    const seen = [frontCacheVerdict(first.headers).said]
    for (let attempt = 1; attempt <= CACHE_ATTEMPTS; attempt++) {
      await sleep(1_000)
      const again = await client.request(path)
      const verdict = frontCacheVerdict(again.headers)
      seen.push(verdict.said)
      if (verdict.hit)
        return report.pass(name, `${seen.join(' -> ')}; Cache-Control: ${cacheControl}`)
    }
    report.fail(
      name,
      `${seen.join(' -> ')}: never a hit, so every visit runs the worker; with Cache-Control: ${cacheControl} the cache in front stores nothing (Cloudflare-CDN-Cache-Control not honoured, or [cache] not enabled)`
    )
  })
}

/**
 * @param {import('./http.mjs').Client} client
 * @param {import('./report.mjs').Report} report
 * @param {string} path a page
 * @param {import('./http.mjs').Answer} page its answer
 */
export async function checkRevalidation(client, report, path, page) {
  const name = `304 for a matching ETag, ${path}`
  await report.guard(name, async () => {
    const etag = page.headers.get('ETag')
    if (!etag) return report.fail(name, 'the page has no ETag')
    const answer = await client.request(path, { headers: { 'If-None-Match': etag } })
    report.expect(
      answer.status === 304 && answer.bytes.length === 0,
      name,
      `If-None-Match ${etag} -> ${answer.status}${answer.bytes.length ? `, ${answer.bytes.length} bytes` : ', no body'}`
    )
  })
}

/**
 * @param {import('./http.mjs').Client} client
 * @param {import('./report.mjs').Report} report
 * @param {string} path the page the image is on
 * @param {string} html its HTML
 */
export async function checkImageRendition(client, report, path, html) {
  const source = pageImageAddress(html)
  if (!source)
    return report.fail('image rendition', `${path} has no <img> with an address on the site`)
  const shown = source.length > 90 ? `${source.slice(0, 87)}...` : source
  await report.guard(`image rendition ${shown}`, async () => {
    const first = await client.request(source, { headers: { Accept: AVIF_ACCEPT } })
    const type = first.headers.get('Content-Type') ?? '(none)'
    report.expect(
      first.status === 200 && type === 'image/avif',
      `image rendition as AVIF (${path}: ${shown})`,
      `${first.status} ${type}, ${first.bytes.length} bytes, Vary: ${first.headers.get('Vary') ?? '(none)'}`
    )
    checkSecurityHeaders(report, 'the image', first.headers)
    const second = await client.request(source, { headers: { Accept: AVIF_ACCEPT } })
    const own = second.headers.get('X-Image-Cache')
    const behind = isBehindCloudflare(second.headers)
    const front = behind ? `, ${frontCacheVerdict(second.headers).said}` : ''
    report.expect(
      own === 'hit' || (behind && frontCacheVerdict(second.headers).hit),
      'image rendition cached (second request)',
      `${second.status} ${second.headers.get('Content-Type')}${front}, the worker's rendition cache: ${own ?? '(not asked)'}`
    )
    const name = 'image served by the cache in front (second request)'
    if (!behind) return report.skip(name, NOT_BEHIND_CLOUDFLARE)
    let verdict = frontCacheVerdict(second.headers)
    for (let attempt = 1; !verdict.hit && attempt < CACHE_ATTEMPTS; attempt++) {
      await sleep(1_000)
      verdict = frontCacheVerdict(
        (await client.request(source, { headers: { Accept: AVIF_ACCEPT } })).headers
      )
    }
    report.expect(verdict.hit, name, verdict.said)
  })
}

/**
 * The first content image of a page: the `src`, on this site, of its first <img> with a `srcset`
 * (every content image has one, src/views/components/image.tsx; a logo or icon has not).
 */
export function pageImageAddress(/** @type {string} */ html) {
  for (const [tag] of html.matchAll(/<img\b[^>]*>/g)) {
    const src = attribute(tag, 'src')
    if (attribute(tag, 'srcset') && src && src.startsWith('/') && !src.startsWith('//')) return src
  }
  return null
}
