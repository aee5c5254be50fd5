/**
 * The payload hashes: one KV key holding the hash of every payload entry of a backend, so that a
 * stored page is checked against all its payloads with one KV read, side by side with the Cache
 * API's (src/freshness/), and a page whose payloads are not in KV at all goes to the
 * backend as soon as they say so. Why: docs/decisions/0027-edge-copies-outlive-a-quiet-night.md,
 * 0041-edge-copies-arrive-fresh-one-trip-leaves.md.
 *
 * - Written by whoever writes a payload entry (./payload-store.ts), after the entry: the scheduled
 *   refresh, the publish hook, and a request that fills a key KV does not have. A writer reads the
 *   key, sets its own payloads' hashes and writes it back when they differ; one payload cache's
 *   writes are made one after another, so one refresh run loses none of its own.
 * - Writers in different places can still overwrite each other (KV has no compare-and-set): a
 *   hash set from a stale read goes back to an older one. Every write of an entry sets its hash
 *   again, and says 'changed' when the hashes key held another one, so the pages are purged: a
 *   lost hash lasts until the payload's next refresh (CONTENT_TTL).
 * - Read with KV's own edge cache (about 60 s, the propagation the freshness contract already
 *   allows for), and remembered in the isolate for a second (as payload reads are); this isolate's
 *   own writes are seen at once.
 */
import type { Bindings, PayloadHashes } from '../env'
import { apiOrigin } from '../content/backend-transport'
import { isolateMemo } from './isolate-memo'

export type { PayloadHashes }

/** How long an isolate uses the hashes it last read before reading KV again. */
export const HASHES_MEMO_MS = 1_000

/** The KV key of the payload hashes of `env`'s backend and product (not under `payload:`). */
export function payloadHashesKey(env: Pick<Bindings, 'API_HOST' | 'PRODUCT'>): string {
  return `payload-hashes:v2:${apiOrigin(env as Bindings)}:${env.PRODUCT}`
}

/** What this isolate last read or wrote of each hashes key, and when. */
const known = isolateMemo<PayloadHashes | null>()

/**
 * The payload hashes under `key`: null when KV has none (nothing was ever stored); rejects when KV
 * cannot be read. What this isolate read less than HASHES_MEMO_MS ago, or wrote, is used without a read.
 */
export async function readPayloadHashes(
  kv: KVNamespace,
  key: string,
  now: () => number = Date.now
): Promise<PayloadHashes | null> {
  const at = now()
  const remembered = known.recall(key, HASHES_MEMO_MS, at)
  if (remembered) return remembered.value
  // A failed read rejects: the caller treats the hashes as unknown, not as "KV holds nothing".
  const hashes = parseHashes(await kv.get(key, 'text'))
  known.remember(key, hashes, at)
  return hashes
}

/**
 * Sets the hashes of `updates` (entry key -> hash) under `key`, reading KV's copy first (not the
 * memo) and writing only when something differs. Resolves to the hash each updated entry had there
 * before (undefined: none).
 */
export async function writePayloadHashes(
  kv: KVNamespace,
  key: string,
  updates: ReadonlyMap<string, string>,
  now: () => number = Date.now
): Promise<Map<string, string | undefined>> {
  const current = parseHashes(await kv.get(key, 'text')) ?? new Map<string, string>()
  const before = new Map([...updates.keys()].map((entry) => [entry, current.get(entry)]))
  const next = new Map(current)
  for (const [entry, hash] of updates) next.set(entry, hash)
  if ([...updates].some(([entry, hash]) => current.get(entry) !== hash)) {
    await kv.put(key, JSON.stringify(Object.fromEntries(next)))
  }
  known.remember(key, next, now())
  return before
}

function parseHashes(text: string | null): PayloadHashes | null {
  if (text === null) return null
  try {
    const parsed: unknown = JSON.parse(text)
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null
    return new Map(
      Object.entries(parsed).filter((pair): pair is [string, string] => typeof pair[1] === 'string')
    )
  } catch {
    return null
  }
}
