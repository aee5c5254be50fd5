/**
 * The telemetry chunk: web vitals (LCP, INP, CLS, FCP, TTFB) and uncaught browser errors, sent to the
 * worker with navigator.sendBeacon (src/routes/telemetry.ts checks and stores them).
 *
 * A vitals beacon also says what a reading of the field data needs of the page view: the device
 * class (./device.ts), the version that rendered the page (`<meta name="deployment-version">`, so a cached copy
 * reports the version that made it) and how the page was served (./served-by.ts, from its
 * Server-Timing). Nothing that follows a visitor: no address, no user-agent string, no id beyond
 * web-vitals' own per-metric one.
 *
 * Vitals are queued and sent together when the page is hidden, the moment web-vitals reports
 * most of them (https://github.com/GoogleChrome/web-vitals#batch-multiple-reports-together).
 * Errors go at once, at most TELEMETRY_LIMITS.errors per page view. A beacon is a string, which
 * the browser sends as text/plain, so a same-origin beacon needs no preflight.
 *
 * web-vitals 6, the maintained line: its soft-navigation support stays off (no `reportSoftNavs`),
 * which a multi-page site has no use for; it costs this chunk 0.9 KB gzip more than 5 did (3.9 KB),
 * loaded after the load event when the browser is idle.
 */
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals'
import { deviceClass } from './device'
import { servedBy } from './served-by'
import { CLIENT_ERRORS_PATH, VITALS_PATH } from '../../src/shared/site-paths'
import {
  DEPLOYMENT_VERSION_META,
  TELEMETRY_LIMITS as LIMITS,
  type ClientError,
  type ClientErrorsBeacon,
  VERSION_ID,
  type VitalMetric,
  type VitalsBeacon,
} from '../../src/shared/telemetry'

const queue: VitalMetric[] = []
/** What every vitals beacon of this page view says of it; read once, when the reporter starts. */
let pageView: Pick<VitalsBeacon, 'device' | 'version' | 'served'> = {}
let errorsSent = 0

const page = () => location.pathname.slice(0, LIMITS.page)
const cut = (text: unknown, max: number) =>
  typeof text === 'string' && text ? text.slice(0, max) : undefined

function send(path: string, beacon: VitalsBeacon | ClientErrorsBeacon): void {
  try {
    navigator.sendBeacon(path, JSON.stringify(beacon))
  } catch {
    // No sendBeacon, or the browser refused the beacon: telemetry is best effort.
  }
}

function enqueue({ name, value, rating, id, navigationType }: Metric): void {
  queue.push({ name, value, rating, id, navigationType })
}

function flushVitals(): void {
  while (queue.length > 0)
    send(VITALS_PATH, { page: page(), metrics: queue.splice(0, LIMITS.metrics), ...pageView })
}

function describePageView(): Pick<VitalsBeacon, 'device' | 'version' | 'served'> {
  const version = document
    .querySelector<HTMLMetaElement>(`meta[name="${DEPLOYMENT_VERSION_META}"]`)
    ?.getAttribute('content')
  return {
    device: deviceClass(),
    ...(version && VERSION_ID.test(version) ? { version } : {}),
    served: servedBy(),
  }
}

function reportError(error: ClientError): void {
  if (errorsSent >= LIMITS.errors) return
  errorsSent += 1
  send(CLIENT_ERRORS_PATH, { page: page(), errors: [error] })
}

function describeError(kind: ClientError['kind'], error: unknown, message?: string): ClientError {
  const text =
    message ||
    (error instanceof Error ? `${error.name}: ${error.message}${causeOf(error)}` : String(error))
  return {
    kind,
    message: cut(text, LIMITS.message) ?? 'unknown error',
    stack: cut(error instanceof Error ? error.stack : '', LIMITS.stack),
  }
}

/** What an error wraps, as ' (because: ...)': a chunk-load failure says why the chunk did not load. */
function causeOf(error: Error): string {
  const cause: unknown = error.cause
  if (cause === undefined) return ''
  return ` (because: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)})`
}

/** An error the page caught and carried on from (an island that did not load): reported as an uncaught one is. */
export function reportCaughtError(error: unknown): void {
  reportError(describeError('error', error))
}

export function startTelemetry(): void {
  try {
    pageView = describePageView()
  } catch {
    // A browser without matchMedia or Navigation Timing: the beacons go without these fields.
  }
  for (const onMetric of [onLCP, onINP, onCLS, onFCP, onTTFB]) onMetric(enqueue)
  // Registered after web-vitals' own listeners, so the metrics they report on hiding are queued first.
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushVitals()
  })
  addEventListener('pagehide', flushVitals)
  addEventListener('error', (event) => {
    const position = event.lineno ? { line: event.lineno, column: event.colno } : {}
    reportError({
      ...describeError('error', event.error, event.message),
      source: cut(event.filename, LIMITS.source),
      ...position,
    })
  })
  addEventListener('unhandledrejection', (event) =>
    reportError(describeError('unhandledrejection', event.reason))
  )
}
