/**
 * The telemetry beacons' schemas (src/routes/telemetry.ts). The routes load this module, and zod
 * with it, on the first beacon: most requests are pages, which never read one, and evaluating zod
 * costs a new isolate's startup (docs/decisions/0033-names-not-kept-modules-loaded-on-first-use.md).
 */
import * as z from 'zod'
import {
  CACHE_LEVELS,
  DEVICE_CLASSES,
  METRIC_NAMES,
  METRIC_RATINGS,
  TELEMETRY_LIMITS as LIMITS,
  VERSION_ID,
  type ClientErrorsBeacon,
  type VitalsBeacon,
} from '../shared/telemetry'

const page = z.string().startsWith('/').max(LIMITS.page)

/** `POST` VITALS_PATH: a page's Core Web Vitals. */
export const vitals = z.object({
  page,
  metrics: z
    .array(
      z.object({
        name: z.enum(METRIC_NAMES),
        value: z.number().min(0).max(3_600_000),
        rating: z.enum(METRIC_RATINGS),
        id: z.string().max(100),
        navigationType: z.string().max(40).optional(),
      })
    )
    .min(1)
    .max(LIMITS.metrics),
  device: z.enum(DEVICE_CLASSES).optional(),
  version: z.string().regex(VERSION_ID).optional(),
  served: z
    .object({
      cache: z.enum(CACHE_LEVELS),
      ms: z.number().min(0).max(600_000).optional(),
    })
    .optional(),
}) satisfies z.ZodType<VitalsBeacon>

const position = z.number().int().min(0).optional()

/** `POST` CLIENT_ERRORS_PATH: a page's uncaught errors. */
export const clientErrors = z.object({
  page,
  errors: z
    .array(
      z.object({
        kind: z.enum(['error', 'unhandledrejection']),
        message: z.string().max(LIMITS.message),
        source: z.string().max(LIMITS.source).optional(),
        line: position,
        column: position,
        stack: z.string().max(LIMITS.stack).optional(),
      })
    )
    .min(1)
    .max(LIMITS.errors),
}) satisfies z.ZodType<ClientErrorsBeacon>
