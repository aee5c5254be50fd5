/**
 * Preview links and sessions as a CMS or `npm run preview:link` makes them (src/preview/signing.ts),
 * and the cookie a link sets, for the preview tests.
 */
import { expect } from 'vitest'
import type { Bindings } from '../../../src/env'
import { newNonce, signPreviewLink, signSession } from '../../../src/preview/signing'
import { fetchPage } from './worker'

export const PREVIEW_SECRET = 'test-preview-secret-of-32-bytes-at-least'
export const EDITOR_TOKEN = 'test-editor-token'

/** Epoch seconds `minutes` from now (negative: in the past). */
export const minutesFromNow = (minutes: number) => Math.floor(Date.now() / 1000) + minutes * 60

/** A link to `path`'s preview, signed with `secret`, valid for `minutes`, as an address on http://localhost. */
export async function previewLink(
  path: string,
  { secret = PREVIEW_SECRET, minutes = 30, nonce = newNonce(), origin = 'http://localhost' } = {}
): Promise<string> {
  const url = await signPreviewLink(secret, origin, {
    path,
    expiresAt: minutesFromNow(minutes),
    nonce,
  })
  return url.startsWith('http://localhost') ? url.slice('http://localhost'.length) : url
}

/** A session cookie signed as the worker signs one, for sessions a link cannot make (expired ones). */
export async function sessionCookie(
  session: { nonce?: string; linkExpiresAt?: number; expiresAt: number },
  secret = PREVIEW_SECRET
): Promise<string> {
  const token = await signSession(secret, {
    nonce: session.nonce ?? newNonce(),
    linkExpiresAt: session.linkExpiresAt ?? session.expiresAt,
    expiresAt: session.expiresAt,
  })
  return `site_preview=${token}`
}

/** Follows `link` as an editor's browser does: the cookie it sets, as a Cookie header value. */
export async function enterPreview(link: string, bindings: Bindings): Promise<string> {
  const response = await fetchPage(link, bindings, { redirect: 'manual' })
  expect(response.status, await response.clone().text()).toBe(303)
  const setCookie = response.headers.get('Set-Cookie') ?? ''
  const pair = /^site_preview=[^;]+/.exec(setCookie)
  expect(pair, setCookie).not.toBeNull()
  return pair![0]
}
