/**
 * `GET /_preview/exit?path=<public page path>`: ends the preview. The session's link is revoked
 * (./revoked-links.ts), so replaying it opens nothing; the cookie is cleared; the editor lands on
 * the public page they were previewing (`path`, when it is one of the site's pages; else home).
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { revoke } from './revoked-links'
import { clearSessionCookie, previewSecrets, sessionTokenOf } from './session-cookie'
import { verifySession } from './signing'
import { isPublicPagePath } from './targets'

export const exit = new Hono<AppEnv>()

exit.get('/exit', async (c) => {
  const token = sessionTokenOf(c)
  const session = token ? await verifySession(previewSecrets(c.env), token) : null
  if (session) await revoke(c.env.CONTENT_CACHE, session.nonce, session.linkExpiresAt)
  if (token !== undefined) clearSessionCookie(c)
  const path = c.req.query('path')
  return c.redirect(path && isPublicPagePath(path) ? path : '/', 303)
})
