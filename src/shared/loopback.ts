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

