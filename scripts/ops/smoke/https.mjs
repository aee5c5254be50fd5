// @ts-check
/**
 * HTTPS only (src/middleware/https-only/): the site's address typed with `http://` is sent to the
 * same address over HTTPS in one permanent redirect. Skipped, saying why, when the base URL is a
 * loopback address: local development stays on HTTP.
 */
import { isLoopbackHost } from '../../../src/shared/loopback.ts'
import { createClient } from './http.mjs'

const PERMANENT = new Set([301, 308])

/**
 * @param {import('./report.mjs').Report} report
 * @param {string} origin the base URL's origin
 * @param {Record<string, string>} always headers for every request
 * @param {string} path a page
 */
export async function checkHttpsRedirect(report, origin, always, path) {
  const name = `http:// redirects to https:// in one hop, ${path}`
  const base = new URL(origin)
  if (isLoopbackHost(base.hostname))
    return report.skip(
      name,
      `the base URL ${origin} is a loopback address, which stays on HTTP for local development`
    )
  await report.guard(name, async () => {
    const plain = new URL(path, origin)
    plain.protocol = 'http:'
    const expected = new URL(path, origin)
    expected.protocol = 'https:'
    // Its own client: the smoke's usual one keeps to the base URL's origin.
    const answer = await createClient(plain.origin, always).request(plain.href)
    const location = answer.headers.get('Location') ?? '(none)'
    const target = answer.headers.has('Location') ? new URL(location, plain).href : location
    const ok = PERMANENT.has(answer.status) && target === expected.href
    report.expect(
      ok,
      name,
      `GET ${plain.href} -> ${answer.status}, Location: ${location}${ok ? '' : `; expected 301 or 308 to ${expected.href}`}`
    )
  })
}
