/**
 * The beacon endpoints of client/telemetry: web vitals (POST /api/vitals) and browser errors
 * (POST /api/client-errors). A beacon must not come from another site (src/middleware/same-origin),
 * must be within its client's budget (TELEMETRY_RATE_LIMITER, by CF-Connecting-IP: 429 with
 * Retry-After beyond it, before the body is read), fit in TELEMETRY_LIMITS.body bytes and match its
 * schema; it is then written to the VITALS Analytics Engine dataset, or logged when none is bound.
 * Both answer 204 with no body: a beacon's sender never reads the answer. A beacon from a preview
 * page (under /_preview: an editor, not a visitor) is answered the same and written nowhere.
 *
 * Rows are billed per data point, so what one client can write is bounded twice: per request, at
 * most MAX_ROWS_PER_BEACON points (one per metric or error, the schemas' limits), counted as they are
 * written; per client, the limiter's requests a minute (wrangler.toml). A page view sends two vitals
 * beacons (on hiding and on leaving), and an error beacon only when a script fails, five at most.
 *
 * Data points, one per metric or error (blob1 tells them apart in SQL; scripts/lib/vitals/sql.mjs
 * names the same positions for `npm run vitals`):
 * - vital:        index = metric name; blobs = ['vital', name, rating, page, lng, navigationType,
 *                 country, device, version, cache level]; doubles = [value, server ms]
 *                 (device and version '' when the beacon had none, cache level 'unknown', server ms -1)
 * - client-error: index = 'client-error'; blobs = ['client-error', kind, message, source, page, lng,
 *                 stack, country]; doubles = [line, column]
 * Nothing follows a visitor: no address, no user-agent string, no id (docs/security.md).
 * https://developers.cloudflare.com/analytics/analytics-engine/get-started/
 */
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { createMiddleware } from 'hono/factory'
import type { z } from 'zod'
import type { AppEnv } from '../env'
import { sameOrigin } from '../middleware/same-origin'
import { splitLanguagePrefix } from '../shared/languages'
import { publicPathOf } from '../shared/preview-paths'
import { CLIENT_ERRORS_PATH, VITALS_PATH } from '../shared/site-paths'
import {
  TELEMETRY_LIMITS as LIMITS,
  type ClientErrorsBeacon,
  type VitalsBeacon,
} from '../shared/telemetry'
import { countryOf, writeVitalsPoint, type DataPoint } from '../observability'

/** The beacons' schemas, loaded (with zod) on the first beacon, not when a new isolate starts. */
const loadSchemas = () => import('./telemetry-schemas')

/** Data points one beacon may write: one per metric or error, as many as its schema allows. */
export const MAX_ROWS_PER_BEACON = Math.max(LIMITS.metrics, LIMITS.errors)
/** The limiter's period (wrangler.toml TELEMETRY_RATE_LIMITER): when a refused client may send again. */
const RATE_LIMIT_PERIOD_SECONDS = 60

const NO_STORE = { 'Cache-Control': 'no-store' }
const fromThisSite = sameOrigin<AppEnv>({ onRefused: (c) => c.body(null, 403, NO_STORE) })
const withinBudget = createMiddleware<AppEnv>(async (c, next) => {
  const client = c.req.header('CF-Connecting-IP') ?? 'unknown'
  if (await withinRateLimit(c, client)) return next()
  return c.body(null, 429, { ...NO_STORE, 'Retry-After': String(RATE_LIMIT_PERIOD_SECONDS) })
})
const limit = bodyLimit({ maxSize: LIMITS.body, onError: (c) => c.body(null, 413, NO_STORE) })

export const telemetry = new Hono<AppEnv>()

telemetry.post(VITALS_PATH, fromThisSite, withinBudget, limit, async (c) => {
  const beacon = await readBeacon(c, (await loadSchemas()).vitals)
  if (!beacon) return c.body(null, 400, NO_STORE)
  if (publicPathOf(beacon.page) !== null) return c.body(null, 204, NO_STORE)
  const { lng, path } = splitLanguagePrefix(beacon.page)
  const country = countryOf(c)
  const pageView = [
    beacon.device ?? '',
    beacon.version ?? '',
    beacon.served?.cache ?? 'unknown',
  ] as const
  const serverMs = beacon.served?.ms ?? -1
  writeRows(
    c,
    beacon.metrics.map((metric) => ({
      indexes: [metric.name],
      blobs: [
        'vital',
        metric.name,
        metric.rating,
        path,
        lng,
        metric.navigationType ?? '',
        country,
        ...pageView,
      ],
      doubles: [metric.value, serverMs],
    }))
  )
  return c.body(null, 204, NO_STORE)
})

telemetry.post(CLIENT_ERRORS_PATH, fromThisSite, withinBudget, limit, async (c) => {
  const beacon = await readBeacon(c, (await loadSchemas()).clientErrors)
  if (!beacon) return c.body(null, 400, NO_STORE)
  if (publicPathOf(beacon.page) !== null) return c.body(null, 204, NO_STORE)
  const { lng, path } = splitLanguagePrefix(beacon.page)
  const country = countryOf(c)
  writeRows(
    c,
    beacon.errors.map((error) => ({
      indexes: ['client-error'],
      blobs: [
        'client-error',
        error.kind,
        error.message,
        error.source ?? '',
        path,
        lng,
        error.stack ?? '',
        country,
      ],
      doubles: [error.line ?? 0, error.column ?? 0],
    }))
  )
  return c.body(null, 204, NO_STORE)
})

/** One beacon counted against its client's budget; true when within it. An unbound or failing limiter lets it through. */
async function withinRateLimit(c: Context<AppEnv>, client: string): Promise<boolean> {
  try {
    return (await c.env.TELEMETRY_RATE_LIMITER.limit({ key: `telemetry:${client}` })).success
  } catch (error) {
    console.warn(`telemetry: rate limiter failed: ${String(error)}`)
    return true
  }
}

/**
 * The body as JSON, checked against `schema`; null when it is not. navigator.sendBeacon sends a
 * string as text/plain (no CORS preflight), so the Content-Type is not relied on.
 */
async function readBeacon<S extends z.ZodType>(
  c: Context<AppEnv>,
  schema: S
): Promise<z.output<S> | null> {
  let body: unknown
  try {
    body = JSON.parse(await c.req.text())
  } catch {
    return null
  }
  const parsed = schema.safeParse(body)
  return parsed.success ? parsed.data : null
}

/** Writes one beacon's data points, never more than MAX_ROWS_PER_BEACON (the schemas already keep them within it). */
function writeRows(c: Context<AppEnv>, points: DataPoint[]) {
  for (const point of points.slice(0, MAX_ROWS_PER_BEACON)) writeVitalsPoint(c, point)
}
