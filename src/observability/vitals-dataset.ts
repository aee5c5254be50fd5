/**
 * Writing to the VITALS Analytics Engine dataset, for the beacons (src/routes/telemetry.ts) and the
 * contact messages (src/contact/message-data-point.ts): a point is written where the dataset is
 * bound, and logged where it is not (tests, local development).
 */
import type { Context } from 'hono'
import type { AppEnv } from '../env'

export type DataPoint = { indexes: [string]; blobs: string[]; doubles?: number[] }

export function writeVitalsPoint(c: Context<AppEnv>, point: DataPoint): void {
  if (c.env.VITALS) c.env.VITALS.writeDataPoint(point)
  else console.log(`telemetry ${JSON.stringify(point)}`)
}

/** The visitor's country as Cloudflare gives it ('' where it does not, as locally). */
export function countryOf(c: Context<AppEnv>): string {
  const cf = c.req.raw.cf as { country?: unknown } | undefined
  return typeof cf?.country === 'string' ? cf.country : ''
}
