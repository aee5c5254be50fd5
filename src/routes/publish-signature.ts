/**
 * The publish hook's authentication: an HMAC-SHA256 signature, with the PUBLISH_SECRET shared
 * with the CMS, over `<timestamp>.<body>`, sent as
 *
 *   X-Publish-Timestamp: <Unix time in seconds>
 *   X-Publish-Signature: sha256=<hex of HMAC-SHA256(PUBLISH_SECRET, timestamp + "." + body)>
 *
 * The comparison is the platform's constant-time `crypto.subtle.verify`. A timestamp outside
 * WINDOW_SECONDS of now is refused, and a signature already accepted within the window is refused
 * as a replay: remembered in this isolate and in KV (which other data centres see within about a
 * minute, so there a replay is refused only best-effort; the window and the rate limit bound it).
 */
export const TIMESTAMP_HEADER = 'X-Publish-Timestamp'
export const SIGNATURE_HEADER = 'X-Publish-Signature'
/** Seconds a signed call stays valid either side of now. */
export const WINDOW_SECONDS = 300

export type Verdict =
  | { ok: true; signature: string }
  | { ok: false; reason: 'missing' | 'malformed' | 'expired' | 'wrong' | 'replayed' }

const seen = new Map<string, number>()

/** Checks the signature of `body`; on success remembers it, so the same call is never accepted twice. */
export async function verifyPublishCall(options: {
  secret: string
  timestamp: string | undefined
  signature: string | undefined
  body: string
  kv: KVNamespace
  now?: () => number
}): Promise<Verdict> {
  const now = options.now ?? Date.now
  if (!options.timestamp || !options.signature) return { ok: false, reason: 'missing' }
  const match = /^sha256=([0-9a-f]{64})$/i.exec(options.signature.trim())
  if (!/^\d{1,12}$/.test(options.timestamp) || !match) return { ok: false, reason: 'malformed' }
  if (Math.abs(now() / 1000 - Number(options.timestamp)) > WINDOW_SECONDS)
    return { ok: false, reason: 'expired' }

  const hex = match[1]!.toLowerCase()
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(options.secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify']
  )
  const signed = new TextEncoder().encode(`${options.timestamp}.${options.body}`)
  if (!(await crypto.subtle.verify('HMAC', key, hexBytes(hex), signed)))
    return { ok: false, reason: 'wrong' }

  for (const [signature, expires] of seen) if (expires <= now()) seen.delete(signature)
  const replayKey = `publish:seen:${hex}`
  if (seen.has(hex) || (await options.kv.get(replayKey).catch(() => null)) !== null)
    return { ok: false, reason: 'replayed' }
  const keepMs = 2 * WINDOW_SECONDS * 1000
  seen.set(hex, now() + keepMs)
  await options.kv.put(replayKey, '1', { expirationTtl: keepMs / 1000 })
  return { ok: true, signature: hex }
}

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}
