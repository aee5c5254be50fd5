/**
 * The data point an accepted message writes to the VITALS dataset, so that `npm run vitals` can
 * say which pages bring messages (docs/decisions/0040-a-message-names-its-project.md). Written
 * once per message the site keeps (delivered, or queued by the outbox); never for a refused,
 * rate-limited or trapped submission, nor for a double submit recognised as one.
 *
 * index = 'message'; blobs = ['message', page, lng, project, device, country]: the path without
 * language prefix of the page whose form sent it, its language, the project's id ('' for none), the
 * device class and Cloudflare's country. Nothing the visitor typed, no address, no user-agent
 * string: the device class is one of three words, read from the request's headers (a form sent
 * without JavaScript has no other source).
 * scripts/lib/vitals/sql.mjs names the same positions for `npm run vitals`.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../env'
import type { DeviceClass } from '../shared/telemetry'
import type { Lng } from '../shared/languages'
import { countryOf, writeVitalsPoint } from '../observability'

export const MESSAGE_POINT = 'message'

export type MessagePoint = { page: string; lng: Lng; project: string }

/**
 * The device class a request's headers give: Chromium's `Sec-CH-UA-Mobile: ?1`, or "Mobi" in the
 * user agent (MDN's advice for telling phones apart), is a phone; "iPad", "Tablet" or Android
 * without "Mobi" is a tablet; anything else a desktop. An iPad that asks for desktop sites counts
 * as a desktop.
 */
export function deviceClassOf(headers: Headers): DeviceClass {
  if (headers.get('Sec-CH-UA-Mobile') === '?1') return 'phone'
  const agent = headers.get('User-Agent') ?? ''
  if (/Mobi/.test(agent)) return 'phone'
  if (/iPad|Tablet|Android/.test(agent)) return 'tablet'
  return 'desktop'
}

/** Writes the message's data point, or logs it where no dataset is bound (tests, local development). */
export function writeMessagePoint(c: Context<AppEnv>, { page, lng, project }: MessagePoint): void {
  const device = deviceClassOf(c.req.raw.headers)
  try {
    writeVitalsPoint(c, {
      indexes: [MESSAGE_POINT],
      blobs: [MESSAGE_POINT, page, lng, project, device, countryOf(c)],
    })
  } catch (error) {
    // A message is never refused for its count.
    console.warn(`contact: message data point not written: ${String(error)}`)
  }
}
