/**
 * The preview cookie: a session token (./signing.ts) scoped to PREVIEW_PREFIX, so that no public
 * page ever receives it (and none reads it), HttpOnly, SameSite=Lax, Secure except on loopback
 * hosts (plain-HTTP local development), living as long as the session.
 */
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { AppEnv, Bindings } from '../env'
import { isLoopbackHost } from '../shared/loopback'
import { PREVIEW_PREFIX } from '../shared/site-paths'

export const PREVIEW_COOKIE = 'site_preview'

/** The secrets a signature may be made with: PREVIEW_SECRET, then the one it replaced. */
export function previewSecrets(env: Bindings): string[] {
  return [env.PREVIEW_SECRET, env.PREVIEW_SECRET_PREVIOUS].filter((secret): secret is string =>
    Boolean(secret)
  )
}

function cookieOptions(c: Context<AppEnv>) {
  return {
    path: PREVIEW_PREFIX,
    httpOnly: true,
    sameSite: 'Lax',
    secure: !isLoopbackHost(new URL(c.req.url).hostname),
  } as const
}

export function setSessionCookie(c: Context<AppEnv>, token: string, maxAgeSeconds: number) {
  setCookie(c, PREVIEW_COOKIE, token, { ...cookieOptions(c), maxAge: maxAgeSeconds })
}

export function sessionTokenOf(c: Context<AppEnv>): string | undefined {
  return getCookie(c, PREVIEW_COOKIE)
}

export function clearSessionCookie(c: Context<AppEnv>) {
  deleteCookie(c, PREVIEW_COOKIE, cookieOptions(c))
}
