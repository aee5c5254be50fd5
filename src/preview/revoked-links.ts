/**
 * Links closed by exit: each link's nonce, kept in CONTENT_CACHE until the link would have expired
 * anyway, so that a link replayed after exit opens nothing. KV shows a write in other locations
 * within about 60 s: a replay elsewhere in that minute may still open (docs/decisions/0045-preview-mode.md).
 */
const KEY_PREFIX = 'preview:revoked:'
/** KV's shortest expiration, in seconds from now. */
const MIN_TTL_SECONDS = 60

export async function isRevoked(kv: KVNamespace, nonce: string): Promise<boolean> {
  return (await kv.get(`${KEY_PREFIX}${nonce}`)) !== null
}

/** Records `nonce` as revoked until `until` (epoch seconds), the link's own expiry. */
export async function revoke(kv: KVNamespace, nonce: string, until: number): Promise<void> {
  const now = Math.floor(Date.now() / 1000)
  await kv.put(`${KEY_PREFIX}${nonce}`, '1', {
    expiration: Math.max(until, now + MIN_TTL_SECONDS),
  })
}
