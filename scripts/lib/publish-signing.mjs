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
  const timestamp = String(Math.floor(Date.now() / 1000))
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
  return {
    'Content-Type': 'application/json',
    'X-Publish-Timestamp': timestamp,
    'X-Publish-Signature': `sha256=${signature}`,
  }
}
