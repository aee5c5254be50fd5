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
  return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && origins.has(url.origin)
}

/**
 * Reads the `src` parameter: a path starting with exactly one '/' (no `..` segments, no
 * backslashes) is a bundled file; an absolute http(s) address must be on an allowed origin.
 */
export function checkSource(src: string, origins: Set<string>): SourceCheck {
  const value = src.trim()
  if (!value) return { ok: false, reason: 'src is empty' }
  if (value.length > MAX_SOURCE_LENGTH) return { ok: false, reason: `src is longer than ${MAX_SOURCE_LENGTH} characters` }
  if (value.startsWith('/') && !value.startsWith('//')) {
    if (value.includes('\\') || /[\u0000-\u001f]/.test(value)) return { ok: false, reason: 'src is not a usable path' }
    const url = new URL(value, 'http://assets.invalid')
    if (url.origin !== 'http://assets.invalid') return { ok: false, reason: 'src leaves the site' }
    return { ok: true, source: { kind: 'asset', path: url.pathname + url.search } }
  }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return { ok: false, reason: 'src is neither a site path nor an absolute address' }
  }
  if (!isAllowedUrl(url, origins)) return { ok: false, reason: `origin ${url.origin} is not an allowed image origin` }
  return { ok: true, source: { kind: 'remote', url } }
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
