// @ts-check
/**
 * Which cache answered. Cloudflare adds `CF-Ray` to every answer that came through it, and, in
 * front of a worker with Workers Cache enabled, `Cf-Cache-Status`
 * (https://developers.cloudflare.com/workers/cache/debugging/). `wrangler dev` and `npm start` add
 * no `CF-Ray`: there the checks of the cache in front are skipped, never passed. A worker's own
 * Cache API reads can carry a `Cf-Cache-Status` too (the image route's renditions do, under
 * `wrangler dev` as well), so only `CF-Ray` says a response came through Cloudflare. The worker's
 * own page cache says `X-Page-Cache: hit` and sets `Age` itself, so `Age` counts only without it.
 */

/** @param {Headers} headers */
export function isBehindCloudflare(headers) {
  return headers.has('CF-Ray')
}

/** Why a platform check is skipped here. */
export const NOT_BEHIND_CLOUDFLARE =
  'no cache in front of the worker here (no CF-Ray header: not served through Cloudflare)'

/**
 * @param {Headers} headers
 * @returns {{ hit: boolean, said: string }} hit: served by the cache in front without running the worker
 */
export function frontCacheVerdict(headers) {
  const status = headers.get('Cf-Cache-Status')
  const age = headers.get('Age')
  const own = headers.get('X-Page-Cache') ?? headers.get('X-Image-Cache')
  if (status)
    return {
      hit: /^(HIT|STALE|UPDATING)$/i.test(status),
      said: `Cf-Cache-Status ${status}${age !== null ? `, Age ${age}` : ''}`,
    }
  if (age !== null && own !== 'hit') return { hit: true, said: `Age ${age} (no Cf-Cache-Status)` }
  return { hit: false, said: `no Cf-Cache-Status${own ? `, the worker's own cache: ${own}` : ''}` }
}
