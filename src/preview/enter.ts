/**
 * `GET /_preview/enter?path=&exp=&nonce=&sig=`: the signed link (./signing.ts; its format for a
 * CMS: docs/operations.md, "Preview a change"). A valid link sets the preview cookie and redirects
 * (303) to the preview of its page; anything else is refused (./refusal.ts) and sets nothing:
 * - 401: no link parameters at all;
 * - 403: a path that is no page of the site, a signature no preview secret made, an expired link,
 *   a link closed by exit.
 * The session lasts as long as the link, at most SESSION_SECONDS.
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { splitLanguagePrefix } from '../shared/languages'
import { previewPathOf } from '../shared/site-paths'
import { refuse } from './refusal'
import { isRevoked } from './revoked-links'
import { previewSecrets, setSessionCookie } from './session-cookie'
import {
  epochSecondsOf,
  linkSigningInput,
  NONCE_PATTERN,
  signSession,
  verifyInput,
} from './signing'
import { isPreviewTarget } from './targets'

/** The longest a preview session (and its cookie) lasts: a link's expiry, or an hour from entry. */
export const SESSION_SECONDS = 60 * 60

export const enter = new Hono<AppEnv>()

enter.get('/enter', async (c) => {
  const { path, exp, nonce, sig } = c.req.query()
  const lng = splitLanguagePrefix(path ?? '/').lng
  const secrets = previewSecrets(c.env)
  if (secrets.length === 0) return refuse(c, 'notConfigured', lng)
  if (path === undefined && exp === undefined && nonce === undefined && sig === undefined)
    return refuse(c, 'noLink', lng)
  if (path === undefined || !isPreviewTarget(path)) return refuse(c, 'notPage', lng)
  const expiresAt = epochSecondsOf(exp)
  if (expiresAt === null || !nonce || !NONCE_PATTERN.test(nonce) || !sig)
    return refuse(c, 'badSignature', lng)
  const link = { path, expiresAt, nonce }
  if (!(await verifyInput(secrets, linkSigningInput(link), sig)))
    return refuse(c, 'badSignature', lng)
  const now = Math.floor(Date.now() / 1000)
  if (expiresAt <= now) return refuse(c, 'expired', lng)
  if (await isRevoked(c.env.CONTENT_CACHE, nonce)) return refuse(c, 'revoked', lng)

  const session = {
    nonce,
    linkExpiresAt: expiresAt,
    expiresAt: Math.min(expiresAt, now + SESSION_SECONDS),
  }
  setSessionCookie(c, await signSession(secrets[0]!, session), session.expiresAt - now)
  return c.redirect(previewPathOf(path), 303)
})
