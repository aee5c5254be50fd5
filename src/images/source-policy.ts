/**
 * Which image sources the route may fetch: site-relative paths (served by the ASSETS binding, no
 * network), the origin of API_HOST, and the origins an operator lists in IMAGE_ORIGINS. Everything
 * else is refused, so `/_image` is never an open proxy: every address fetched, redirects included,
 * goes through `isAllowedUrl` first.
 */
import type { Bindings } from '../env'

/** Longest `src` accepted: real upload addresses are far shorter, and it is part of cache keys. */
export const MAX_SOURCE_LENGTH = 2048

/** A source the route can load: a bundled file or an allowed remote address. */
export type AllowedSource = { kind: 'asset'; path: string } | { kind: 'remote'; url: URL }

export type SourceCheck = { ok: true; source: AllowedSource } | { ok: false; reason: string }

/** The http(s) origins remote sources may come from (API_HOST's and IMAGE_ORIGINS'), normalized. */
export function allowedOrigins(env: Pick<Bindings, 'API_HOST' | 'IMAGE_ORIGINS'>): Set<string> {
  const listed = [env.API_HOST ?? '', ...(env.IMAGE_ORIGINS ?? '').split(/[\s,]+/)]
  const origins = new Set<string>()
  for (const entry of listed) {
    const origin = httpOrigin(entry.trim())
    if (origin) origins.add(origin)
  }
  return origins
}

/** Whether `url` is http(s) on an allowed origin. */
export function isAllowedUrl(url: URL, origins: Set<string>): boolean {
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    !url.username &&
    !url.password &&
    origins.has(url.origin)
  )
}

/**
 * Reads the `src` parameter: a site path (a bundled file) must be canonical, the path a URL parser
 * leaves as it is: one leading '/', no empty, '.' or '..' segments, no query or fragment, no
 * backslash, no encoded '/' or '\\'; anything else is refused rather than normalized, so one file
 * has one address and one cache entry. An absolute http(s) address must be on an allowed origin.
 */
export function checkSource(src: string, origins: Set<string>): SourceCheck {
  const value = src
  if (!value.trim()) return { ok: false, reason: 'src is empty' }
  if (value.length > MAX_SOURCE_LENGTH)
    return { ok: false, reason: `src is longer than ${MAX_SOURCE_LENGTH} characters` }
  if (value.startsWith('/') && !value.startsWith('//')) {
    return isCanonicalSitePath(value)
      ? { ok: true, source: { kind: 'asset', path: value } }
      : { ok: false, reason: 'src is not a canonical site path' }
  }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return { ok: false, reason: 'src is neither a site path nor an absolute address' }
  }
  if (!isAllowedUrl(url, origins))
    return { ok: false, reason: `origin ${url.origin} is not an allowed image origin` }
  return { ok: true, source: { kind: 'remote', url } }
}

/** `/a/b.jpg`-shaped, and unchanged by a URL parser. */
export function isCanonicalSitePath(path: string): boolean {
  if (!/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/.test(path)) return false
  if (
    /%(2f|5c|2e)/i.test(path) ||
    path.split('/').some((segment) => segment === '.' || segment === '..')
  )
    return false
  return new URL(path, 'http://assets.invalid').pathname === path
}

function httpOrigin(entry: string): string | null {
  if (!entry) return null
  try {
    const url = new URL(entry)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null
  } catch {
    return null
  }
}
