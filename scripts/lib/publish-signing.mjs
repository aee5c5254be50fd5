/**
 * Signs a call to the site's signed endpoints (the publish hook, the contact resend) as the CMS
 * signs it: HMAC-SHA256 with the shared PUBLISH_SECRET over `<timestamp>.<body>`, which
 * src/routes/publish-signature.ts verifies. For the ops scripts, the smoke, the soak and the
 * browser tests alike.
 */
import { createHmac } from 'node:crypto'

/**
 * The headers of a signed JSON call with `body`, timed now.
 * @param {string} secret the site's PUBLISH_SECRET
 * @param {string} body the exact request body that will be sent
 * @returns {Record<string, string>}
 */
export function signedJsonHeaders(secret, body) {
  return {
    'Content-Type': 'application/json',
    ...signatureHeaders(secret, body, Math.floor(Date.now() / 1000)),
  }
}

/**
 * The signature headers of `body` signed at `timestamp`.
 * @param {string} secret the site's PUBLISH_SECRET
 * @param {string} body the exact request body that will be sent
 * @param {number} timestamp epoch seconds
 * @returns {Record<string, string>}
 */
export function signatureHeaders(secret, body, timestamp) {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
  return { 'X-Publish-Timestamp': String(timestamp), 'X-Publish-Signature': `sha256=${signature}` }
}
