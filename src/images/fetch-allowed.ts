/**
 * GET of a remote original with redirects followed by hand: each hop is checked against the
 * allow-list (./source-policy.ts) before it is requested, so no request ever reaches an address the
 * list does not name, and at most MAX_REDIRECTS are followed.
 */
import { MAX_REDIRECTS } from './limits'
import { isAllowedUrl } from './source-policy'

/** Why a redirect was not followed: the route's reason code, and a detail for logs only. */
export type RedirectRefusal = { refused: 'too-many-redirects' | 'redirect-refused'; detail: string }

/** GET `url`, following up to MAX_REDIRECTS redirects that stay on allowed origins. */
export async function fetchAllowed(
  url: URL,
  origins: Set<string>,
  signal: AbortSignal
): Promise<Response | RedirectRefusal> {
  let current = url
  for (let hop = 0; ; hop++) {
    const response = await fetch(current, {
      redirect: 'manual',
      signal,
      headers: { Accept: 'image/avif,image/webp,image/*;q=0.8' },
    })
    const location = response.headers.get('Location')
    if (response.status < 300 || response.status >= 400 || !location) return response
    await response.body?.cancel()
    if (hop >= MAX_REDIRECTS)
      return { refused: 'too-many-redirects', detail: `more than ${MAX_REDIRECTS} redirects` }
    const next = URL.parse(location, current)
    if (!next)
      return {
        refused: 'redirect-refused',
        detail: `redirect to an address that does not parse: ${location.slice(0, 100)}`,
      }
    if (!isAllowedUrl(next, origins))
      return {
        refused: 'redirect-refused',
        detail: `redirect to ${next.origin}, which is not an allowed image origin`,
      }
    current = next
  }
}
