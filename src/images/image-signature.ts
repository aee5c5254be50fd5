/**
 * Signed image addresses: the image route transforms only what the site's own pages name
 * (docs/decisions/0013-signed-image-addresses.md, 0023-one-signature-per-image.md). Each address
 * the views write carries `s`, an HMAC-SHA256 with IMAGE_URL_SECRET over the source, the size kind
 * and the fallback exactly as written: the size kind is `ladder` for every width of the image
 * route's ladder (so an image's srcset repeats one signature, which gzip sends once) and `1200x630`
 * for a social card. The route recomputes it before it looks at anything else, so an address nobody
 * signed, or any respelling of a signed one, costs no download and no transform; a signed source
 * can be had at the ladder's widths and nothing else.
 *
 * - Rotation: sign with IMAGE_URL_SECRET, accept IMAGE_URL_SECRET_PREVIOUS too, so pages cached
 *   before the change keep their images until they expire (renditions are cached by source, not by
 *   address, so a rotation transforms nothing again).
 * - Without IMAGE_URL_SECRET (npm start, npm test) a fixed development key signs; staging and
 *   production declare the secret required, so no deploy runs on the development key.
 * - Cost at render: node:crypto's HMAC is synchronous (React renders synchronously) and each
 *   signature is kept per isolate, so a page's dozens of addresses are computed once per isolate and
 *   later renders read a Map. node:crypto itself is loaded on the first signature, not at startup
 *   (src/types/node-crypto.d.ts).
 */
import type { Bindings } from '../env'
import { lazy } from '../shared/lazy'

/** The key when IMAGE_URL_SECRET is unset: local development and tests only. */
export const DEV_IMAGE_URL_SECRET = 'erebuni-development-image-url-secret'

/** Characters of the signature: 96 bits of HMAC-SHA256 in base64url, enough against guessing at any rate limit. */
const SIGNATURE_LENGTH = 16
/** Signatures kept per isolate: every image of every page at every width fits many times over. */
const MAX_REMEMBERED = 20_000

export type ImageSigningKeys = {
  /** Signs new addresses. */
  current: string
  /** Also accepted: the key before a rotation. */
  previous?: string
}

export function imageSigningKeys(
  env: Pick<Bindings, 'IMAGE_URL_SECRET' | 'IMAGE_URL_SECRET_PREVIOUS'>
): ImageSigningKeys {
  const current = env.IMAGE_URL_SECRET?.trim() || DEV_IMAGE_URL_SECRET
  const previous = env.IMAGE_URL_SECRET_PREVIOUS?.trim() || undefined
  return previous && previous !== current ? { current, previous } : { current }
}

const remembered = new Map<string, string>()

/**
 * The signature of one image: `src` and `fallback` exactly as the query carries them, and its size
 * kind (./image-url.ts: LADDER_SIGNED_SIZE for any ladder width, CARD_SIGNED_SIZE for a social card).
 */
export function imageSignature(secret: string, src: string, size: string, fallback = ''): string {
  const message = `${src}\n${size}\n${fallback}`
  const memo = `${secret}\n${message}`
  const known = remembered.get(memo)
  if (known) return known
  const signature = computeSignature(secret, message)
  if (remembered.size >= MAX_REMEMBERED) remembered.clear()
  remembered.set(memo, signature)
  return signature
}

/**
 * Whether `signature` was made with one of `keys` for this source, size kind and fallback. Computed
 * afresh, never remembered: what a request claims must not fill or evict the views' memo.
 */
export function isSignedBy(
  keys: ImageSigningKeys,
  signature: string,
  src: string,
  size: string,
  fallback = ''
): boolean {
  const message = `${src}\n${size}\n${fallback}`
  const claimed = new TextEncoder().encode(signature)
  return [keys.current, keys.previous].some((secret) => {
    if (secret === undefined) return false
    const expected = new TextEncoder().encode(computeSignature(secret, message))
    // The platform's constant-time compare throws on buffers of different lengths; the length is public.
    return (
      expected.byteLength === claimed.byteLength && crypto.subtle.timingSafeEqual(expected, claimed)
    )
  })
}

const nodeCrypto = lazy(() => process.getBuiltinModule('node:crypto'))

function computeSignature(secret: string, message: string): string {
  return nodeCrypto()
    .createHmac('sha256', secret)
    .update(message)
    .digest('base64url')
    .slice(0, SIGNATURE_LENGTH)
}
