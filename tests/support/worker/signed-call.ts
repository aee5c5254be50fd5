import { signatureHeaders } from '../../../scripts/lib/publish-signing.mjs'

let lastSecond = Number.POSITIVE_INFINITY

/**
 * The signature headers a CMS sends for `body`, signed "now", as a new call each time. The hook
 * refuses a signature it has already accepted (a replay), and two calls with the same body in the
 * same second would carry the same signature; so each call here is signed one second before the
 * previous one when the clock has not moved past it. A test file stays far inside the hook's
 * five-minute window.
 */
export function signedNow(secret: string, body: string): Record<string, string> {
  lastSecond = Math.min(Math.floor(Date.now() / 1000), lastSecond - 1)
  return signatureHeaders(secret, body, lastSecond)
}
