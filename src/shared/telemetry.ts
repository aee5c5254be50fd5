/**
 * The beacons the browser sends to the worker (client/telemetry -> src/routes/telemetry.ts): their
 * shapes and limits. Plain types and numbers, no zod, so the client chunk stays tiny; the worker
 * checks every beacon against a zod schema built from the same limits.
 */

/** Where the beacons go. */
export const VITALS_PATH = '/api/vitals'
export const CLIENT_ERRORS_PATH = '/api/client-errors'

export const TELEMETRY_LIMITS = {
  /** Bytes of one beacon's body. */
  body: 4096,
  /** Characters of the page path. */
  page: 300,
  /** Metrics in one vitals beacon. */
  metrics: 8,
  /** Errors in one beacon, and per page view. */
  errors: 5,
  /** Characters of an error message, source and stack. */
  message: 300,
  source: 300,
  stack: 1500,
} as const

export const METRIC_NAMES = ['LCP', 'INP', 'CLS', 'TTFB', 'FCP'] as const
export const METRIC_RATINGS = ['good', 'needs-improvement', 'poor'] as const

export type VitalMetric = {
  name: (typeof METRIC_NAMES)[number]
  /** Milliseconds; unitless for CLS. */
  value: number
  rating: (typeof METRIC_RATINGS)[number]
  /** web-vitals' id of this metric instance, to count each page view once. */
  id: string
  /** 'navigate', 'reload', 'back-forward', 'back-forward-cache', 'prerender', 'restore', ... */
  navigationType?: string
}

export type VitalsBeacon = {
  /** location.pathname of the page that measured them. */
  page: string
  metrics: VitalMetric[]
}

export type ClientError = {
  kind: 'error' | 'unhandledrejection'
  message: string
  /** The script URL of a window error. */
  source?: string
  line?: number
  column?: number
  stack?: string
}

export type ClientErrorsBeacon = {
  page: string
  errors: ClientError[]
}
