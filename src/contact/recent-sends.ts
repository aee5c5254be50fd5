/**
 * The same form sent twice within a minute by one client (a double click, a resubmitted page) is
 * one message. Each send has a fingerprint: SHA-256 of the client's address and the three fields,
 * which keeps neither readable. An accepted send is remembered by its fingerprint for
 * RECENT_SECONDS, in this isolate and in KV (CONTACT_OUTBOX, `recent:<fingerprint>`, KV's shortest
 * expiry), with its message id; a repeat within that time is answered as accepted and not sent
 * again. Two sends so close that neither is remembered yet (in flight together, in two isolates)
 * get the same id from messageIdFor, and the backend stores one of them (Idempotency-Key).
 */
import type { MessageInput } from '../freshness'

/** How long a send is recognised: a minute (KV's shortest expirationTtl is 60 s). */
export const RECENT_SECONDS = 60
const KEY_PREFIX = 'recent:'

const remembered = new Map<string, { id: string; expires: number }>()

/** The send's fingerprint: hex SHA-256 of the client and the fields. */
export async function fingerprintOf(
  client: string,
  { name, email, comments }: MessageInput
): Promise<string> {
  return hex(await sha256(JSON.stringify([client, name, email, comments])))
}

/** The id of a new message: the same for one fingerprint within one clock minute (a UUID's shape). */
export async function messageIdFor(fingerprint: string, now: number): Promise<string> {
  const digest = hex(await sha256(`${fingerprint}:${Math.floor(now / (RECENT_SECONDS * 1000))}`))
  return [
    digest.slice(0, 8),
    digest.slice(8, 12),
    digest.slice(12, 16),
    digest.slice(16, 20),
    digest.slice(20, 32),
  ].join('-')
}

/** The id of the same send accepted within the last minute, or null. A KV failure reads as null. */
export async function findRecentSend(
  kv: KVNamespace,
  fingerprint: string,
  now: number
): Promise<string | null> {
  for (const [key, entry] of remembered) if (entry.expires <= now) remembered.delete(key)
  const local = remembered.get(fingerprint)
  if (local) return local.id
  return kv.get(KEY_PREFIX + fingerprint).catch(() => null)
}

/** Remembers an accepted send for RECENT_SECONDS. */
export async function rememberSend(
  kv: KVNamespace,
  fingerprint: string,
  id: string,
  now: number
): Promise<void> {
  remembered.set(fingerprint, { id, expires: now + RECENT_SECONDS * 1000 })
  await kv.put(KEY_PREFIX + fingerprint, id, { expirationTtl: RECENT_SECONDS })
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}
