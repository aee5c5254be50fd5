/**
 * The addresses of local development (`npm start`, the tests' servers): a request to one of them,
 * reached directly, stays on plain HTTP (src/middleware/https-only, docs/decisions/0016-https-only.md),
 * and the smoke does not expect the HTTPS redirect there (scripts/ops/smoke/https.mjs).
 */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Whether `hostname` (as a URL's `hostname` spells it) is a loopback address of local development. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname)
}

/**
 * Whether `address` (a client's IP, as CF-Connecting-IP gives it) is a loopback address: only
 * local development has such a client (wrangler dev names its caller 127.0.0.1 or ::1), where
 * every tab and every test is the same one. On Cloudflare the header is the visitor's public
 * address, never a loopback one.
 */
export function isLoopbackAddress(address: string): boolean {
  return address.startsWith('127.') || address === '::1' || address.startsWith('::ffff:127.')
}
