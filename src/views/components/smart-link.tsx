/**
 * The one link helper (spec section 5, "Links"): http(s) addresses open in a new tab with no
 * opener; anything else is an internal route and keeps the visitor's language prefix. Unsafe
 * addresses (javascript:, data:, ...) render as plain text.
 */
import type { ReactNode } from 'react'
import { safeHref } from '../../content/sanitize-html'
import { switchLanguagePath, type Lng } from '../../shared/languages'

export type ResolvedLink = {
  href: string
  /** True for http(s) links: they open in a new tab with rel="noopener noreferrer". */
  external: boolean
}

/** Where `href` leads in `lng`, or null when it is empty or unsafe. */
export function resolveLink(href: string, lng: Lng): ResolvedLink | null {
  const safe = safeHref(href)
  if (!safe) return null
  if (/^https?:/i.test(safe)) return { href: safe, external: true }
  if (/^(mailto|tel):/i.test(safe) || /^[?#]/.test(safe)) return { href: safe, external: false }
  return { href: switchLanguagePath(safe.startsWith('/') ? safe : `/${safe}`, lng), external: false }
}

/** The attributes of an anchor for `href`, or null when it is no link. */
export function linkProps(href: string, lng: Lng) {
  const link = resolveLink(href, lng)
  if (!link) return null
  return link.external ? { href: link.href, target: '_blank', rel: 'noopener noreferrer' } : { href: link.href }
}

type SmartLinkProps = {
  href: string
  lng: Lng
  children: ReactNode
  className?: string
  /** The accessible name, when the visible content is only an image or icon. */
  label?: string
  /** Used when `href` is empty or unsafe (e.g. '/enterprise-detail'); without it the content renders unlinked. */
  fallback?: string
}

export function SmartLink({ href, lng, children, className, label, fallback }: SmartLinkProps) {
  const props = linkProps(href, lng) ?? (fallback ? linkProps(fallback, lng) : null)
  if (!props) return className ? <span className={className}>{children}</span> : <>{children}</>
  return (
    <a className={className} aria-label={label} {...props}>
      {children}
    </a>
  )
}
