/**
 * The preview's signatures, one implementation for the worker and for `npm run preview:link`
 * (scripts/ops/preview-link.mjs bundles this file for Node): HMAC-SHA256 under PREVIEW_SECRET with
 * Web Crypto, base64url without padding. A link and a session token sign different strings (their
 * first line differs), so neither can stand in for the other. The link's format, for a CMS that
 * makes links itself: docs/operations.md, "Preview a change".
 */
import { decodeBase64Url, encodeBase64Url } from 'hono/utils/encode'
import { PREVIEW_ENTER_PATH } from '../shared/site-paths'

/** What a link grants: one path, until `expiresAt` (epoch seconds), under a random `nonce`. */
export type PreviewLink = { path: string; expiresAt: number; nonce: string }

/** A session the link opened: the link's nonce and expiry, and the session's own end (epoch seconds). */
export type PreviewSession = { nonce: string; linkExpiresAt: number; expiresAt: number }

/** A nonce: 16 to 64 base64url characters (the link script makes 22: 16 random bytes). */
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/
/** A signature: 32 bytes of HMAC-SHA256 in base64url, 43 characters. */
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/

/** The string a link's `sig` signs: four lines, no trailing newline. */
export function linkSigningInput({ path, expiresAt, nonce }: PreviewLink): string {
  return ['preview-link', path, String(expiresAt), nonce].join('\n')
}

/** The string a session token signs. */
export function sessionSigningInput({ nonce, linkExpiresAt, expiresAt }: PreviewSession): string {
  return ['preview-session', nonce, String(linkExpiresAt), String(expiresAt)].join('\n')
}

function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    [usage]
  )
}

/** base64url (no padding) of HMAC-SHA256(`secret`, `input`). */
export async function signInput(secret: string, input: string): Promise<string> {
  const mac = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret, 'sign'),
    new TextEncoder().encode(input)
  )
  return encodeBase64Url(mac).replace(/=+$/, '')
}

/**
 * Whether `signature` signs `input` under one of `secrets` (the current one, then the previous
 * during a rotation). crypto.subtle.verify compares in constant time.
 */
export async function verifyInput(
  secrets: readonly string[],
  input: string,
  signature: string
): Promise<boolean> {
  if (!SIGNATURE_PATTERN.test(signature)) return false
  const mac = decodeBase64Url(signature)
  const data = new TextEncoder().encode(input)
  for (const secret of secrets) {
    if (await crypto.subtle.verify('HMAC', await hmacKey(secret, 'verify'), mac, data)) return true
  }
  return false
}

/** A fresh nonce: 16 random bytes in base64url. */
export function newNonce(): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(16)).buffer).replace(/=+$/, '')
}

/** The signed link to `path` (a page's public path, or PREVIEW_REPORT_PATH) at `origin`. */
export async function signPreviewLink(
  secret: string,
  origin: string,
  link: PreviewLink
): Promise<string> {
  const url = new URL(PREVIEW_ENTER_PATH, origin)
  url.searchParams.set('path', link.path)
  url.searchParams.set('exp', String(link.expiresAt))
  url.searchParams.set('nonce', link.nonce)
  url.searchParams.set('sig', await signInput(secret, linkSigningInput(link)))
  return url.href
}

/** The session token the preview cookie holds: `<nonce>.<link expiry>.<session end>.<signature>`. */
export async function signSession(secret: string, session: PreviewSession): Promise<string> {
  const signature = await signInput(secret, sessionSigningInput(session))
  return [session.nonce, session.linkExpiresAt, session.expiresAt, signature].join('.')
}

/** The session a token names, when one of `secrets` signed it; null for anything else. */
export async function verifySession(
  secrets: readonly string[],
  token: string
): Promise<PreviewSession | null> {
  const parts = token.split('.')
  if (parts.length !== 4) return null
  const [nonce, linkExpiry, expiry, signature] = parts as [string, string, string, string]
  const linkExpiresAt = epochSecondsOf(linkExpiry)
  const expiresAt = epochSecondsOf(expiry)
  if (!NONCE_PATTERN.test(nonce) || linkExpiresAt === null || expiresAt === null) return null
  const session = { nonce, linkExpiresAt, expiresAt }
  return (await verifyInput(secrets, sessionSigningInput(session), signature)) ? session : null
}

/** A time in epoch seconds written as the link writes it (decimal digits), or null. */
export function epochSecondsOf(text: string | undefined): number | null {
  if (!text || !/^[1-9][0-9]{0,11}$/.test(text)) return null
  return Number(text)
}
