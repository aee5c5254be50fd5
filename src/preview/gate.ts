/**
 * Lets a preview request through only with a valid session: the preview cookie, signed by a
 * preview secret (./signing.ts), not past its end, its link not closed by exit. Sets
 * `c.var.preview` (which turns the content client into the preview's, src/preview/preview-content.ts)
 * and `c.var.previewLoads`. Without a cookie: 401; with one that is forged, expired or closed: 403.
 */
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../env'
import { splitLanguagePrefix } from '../shared/languages'
import { refuse } from './refusal'
import { isRevoked } from './revoked-links'
import { previewSecrets, sessionTokenOf } from './session-cookie'
import { verifySession } from './signing'

export const previewGate = createMiddleware<AppEnv>(async (c, next) => {
  const lng = splitLanguagePrefix(c.req.path).lng
  const secrets = previewSecrets(c.env)
  if (secrets.length === 0) return refuse(c, 'notConfigured', lng)
  const token = sessionTokenOf(c)
  if (!token) return refuse(c, 'noSession', lng)
  const session = await verifySession(secrets, token)
  if (!session) return refuse(c, 'badSession', lng)
  if (session.expiresAt <= Math.floor(Date.now() / 1000)) return refuse(c, 'sessionExpired', lng)
  if (await isRevoked(c.env.CONTENT_CACHE, session.nonce)) return refuse(c, 'revoked', lng)
  c.set('preview', session)
  c.set('previewLoads', new Map())
  await next()
})
