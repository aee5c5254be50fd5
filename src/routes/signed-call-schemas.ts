/**
 * The bodies of the signed operator calls (src/routes/publish.ts, src/routes/contact-resend.ts).
 * Their routes load this module, and zod with it, on their first call, not when a new isolate
 * starts (docs/decisions/0033-names-not-kept-modules-loaded-on-first-use.md).
 */
import * as z from 'zod'
import { PAYLOAD_ENDPOINTS } from '../content/payload-catalogue'

/** `POST /api/publish`: which payloads to refresh, and whether to purge unchanged ones. */
export const PublishSchema = z.strictObject({
  payloads: z.array(z.enum(PAYLOAD_ENDPOINTS)).min(1).max(PAYLOAD_ENDPOINTS.length).optional(),
  /** Purge the pages of the named payloads even when their content did not change (`npm run smoke`). */
  purgeUnchanged: z.boolean().optional(),
})

/** `POST /api/contact/resend`: which dead letters to send again (all when absent). */
export const ResendSchema = z.strictObject({
  ids: z.array(z.string().min(1).max(64)).min(1).max(300).optional(),
})
