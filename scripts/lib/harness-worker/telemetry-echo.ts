/**
 * The beacon routes' data points, answered back: a beacon the site answers 204
 * (src/routes/telemetry.ts) is answered 200 with `{ points }`, the Analytics Engine data points the
 * site wrote to VITALS for it, so that a browser test reads what the dataset got
 * (tests/e2e/telemetry.spec.ts). The harness worker (./worker.ts) gives each beacon request a
 * VITALS of its own that records what is written and passes it on.
 */
import type { Bindings } from '../../../src/env'
import { CLIENT_ERRORS_PATH, VITALS_PATH } from '../../../src/shared/site-paths'

/** Whether a request is a beacon whose data points the harness answers with. */
export function isBeacon(request: Request): boolean {
  const { pathname } = new URL(request.url)
  return request.method === 'POST' && (pathname === VITALS_PATH || pathname === CLIENT_ERRORS_PATH)
}

/** A limiter that never refuses: every tab of the browser suite and the bench is one loopback client. */
const UNLIMITED: RateLimit = { limit: async () => ({ success: true }) }

/**
 * The bindings with a VITALS that records each data point written, then writes it, and no limit on
 * beacons: the browser suite loads hundreds of pages a minute from one address, and the limit is
 * proved by the worker tests (tests/worker/telemetry.test.ts).
 */
export function recordingVitals<E extends Bindings>(
  env: E
): { env: E; points: AnalyticsEngineDataPoint[] } {
  const unlimited = { ...env, TELEMETRY_RATE_LIMITER: UNLIMITED }
  const dataset = env.VITALS
  if (!dataset) return { env: unlimited, points: [] }
  const points: AnalyticsEngineDataPoint[] = []
  const recording: AnalyticsEngineDataset = {
    writeDataPoint(point) {
      if (point) points.push(point)
      dataset.writeDataPoint(point)
    },
  }
  return { env: { ...unlimited, VITALS: recording }, points }
}

/** 200 with the points written where the site answered 204; any other answer as it is. */
export function echoed(response: Response, points: AnalyticsEngineDataPoint[]): Response {
  if (response.status !== 204) return response
  return Response.json({ points }, { status: 200, headers: response.headers })
}
