/**
 * POST /api/publish: the content backend (or an editor's script) says content changed. Signed
 * calls (publish-signature.ts) refresh the payloads they name, or all, from the backend at once, and
 * purge the pages of those whose content changed; the others keep their cached pages.
 *
 *   body: {} or {"payloads": ["get-home-page", "navbar-data", ...]} (PAYLOAD_ENDPOINTS), and
 *   optionally "purgeUnchanged": true, which purges the pages of the named payloads even when their
 *   content did not change (the smoke's check that a tag purge works, scripts/ops/smoke/publish.mjs)
 *   200 {refreshed, changed, failed, purged, purgedAgain, content}: tags (purgedAgain: those of purged
 *   whose content changed one to two minutes ago, purged again), and `content`, the content report
 *   of the payloads it loaded (src/report/: what their visitors miss, per page and
 *   language; images are not read here, `npm run content:check` reads them); 502 when the backend failed some (their
 *   last good content stays); 400 malformed body; 401 bad, missing, expired or replayed signature
 *   (nothing touched); 413 body over PUBLISH_BODY_LIMIT; 429 over PUBLISH_RATE_LIMITER;
 *   503 when PUBLISH_SECRET is not set.
 */
import { Hono } from 'hono'
import { apiOrigin } from '../content/backend-transport'
import { PAYLOAD_ENDPOINTS, payloadTag } from '../content/payload-catalogue'
import type { PayloadLoad } from '../report'
import type { AppEnv } from '../env'
import { pagePurgerFor, refreshPayloads, repurgerFor } from '../freshness'
import { reportError } from '../observability'
import { PAGE_PATHS, PUBLISH_PATH } from '../shared/site-paths'
import { readSignedBody, signedCallGuards } from './signed-call'

/** Bytes: a list of endpoint names is far smaller. */
export const PUBLISH_BODY_LIMIT = 4096

export const publish = new Hono<AppEnv>()

const PUBLISH_CALL = {
  name: 'publish',
  maxBytes: PUBLISH_BODY_LIMIT,
  tooMany: 'too many publish calls',
  notConfigured: 'publish hook not configured: set the PUBLISH_SECRET secret',
}

const [rateLimit, limitBody] = signedCallGuards(PUBLISH_CALL)

publish.post(PUBLISH_PATH, rateLimit, limitBody, async (c) => {
  const request = await readSignedBody(c, {
    schema: (await import('./signed-call-schemas')).PublishSchema,
    notConfigured: PUBLISH_CALL.notConfigured,
    invalid: {
      error: 'body must be {} or {"payloads": [...], "purgeUnchanged": true|false}',
      allowed: PAYLOAD_ENDPOINTS,
    },
  })
  if (!request.ok) return request.response

  const loads = new Map<string, PayloadLoad>()
  const errors = new Map<string, string>()
  const report = await refreshPayloads({
    env: c.env,
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    purger: pagePurgerFor(c.executionCtx as { cache?: CacheContext }),
    repurge: repurgerFor(c.env),
    pages: PAGE_PATHS,
    endpoints: request.data.payloads,
    force: true,
    purgeUnchanged: request.data.purgeUnchanged,
    origin: new URL(c.req.url).origin,
    onLoaded: (path, loaded) => loads.set(payloadTag(path), loaded),
    onError: (error, { key, tag }) => {
      if (tag) errors.set(tag, error instanceof Error ? error.message : String(error))
      console.warn(`publish: ${key}: ${String(error)}`)
      reportError(c, error, 'backend', { backend_key: key })
    },
  })
  for (const tag of report.failed)
    loads.set(tag, {
      error: `not delivered (${errors.get(tag) ?? 'see the logs'}); its last good copy stays`,
    })
  const { buildContentReport } = await import('../report')
  const content = buildContentReport(loads, { backend: `${apiOrigin(c.env)} ${c.env.PRODUCT}` })
  return c.json({ ...report, content }, report.failed.length ? 502 : 200, {
    'Cache-Control': 'no-store',
  })
})
