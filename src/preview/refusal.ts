/**
 * A preview that cannot be shown: a short plain-text reason in the language of the page it was
 * for, never stored by any cache, setting no cookie.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { getT, type TranslationKey } from '../shared/i18n'
import type { Lng } from '../shared/languages'

/** Why, with the status it answers. */
const REASONS = {
  noSession: [401, 'preview.refusedNoSession'],
  noLink: [401, 'preview.refusedNoLink'],
  notPage: [403, 'preview.refusedNotPage'],
  badSignature: [403, 'preview.refusedBadSignature'],
  expired: [403, 'preview.refusedExpired'],
  revoked: [403, 'preview.refusedRevoked'],
  badSession: [403, 'preview.refusedBadSession'],
  sessionExpired: [403, 'preview.refusedSessionExpired'],
  notConfigured: [503, 'preview.notConfigured'],
} as const satisfies Record<string, readonly [401 | 403 | 503, TranslationKey]>

export type RefusalReason = keyof typeof REASONS

export function refuse(c: Context<AppEnv>, reason: RefusalReason, lng: Lng): Response {
  const [status, key] = REASONS[reason]
  return c.text(`${getT(lng)(key)}\n`, status, {
    'Cache-Control': 'no-store',
    'Content-Language': lng,
  })
}
