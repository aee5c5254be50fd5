/**
 * The one link helper (spec section 5, "Links"): http(s) addresses open in a new tab with no
 * opener; anything else is an internal route and keeps the visitor's language prefix. Payload
 * links arrive parsed (src/content/addresses.ts); the same parse is applied here to the views' own
 * fallbacks, so unsafe addresses (javascript:, data:, '//host', ...) render as plain text, and an
 * internal link stays internal after the language rewrite.
 */
import type { ReactNode } from 'react'
import { isExternalAddress, parseAddress } from '../../content/addresses'
import { switchLanguagePath, type Lng } from '../../shared/languages'

export type ResolvedLink = {
  href: string
  /** True for http(s) links: they open in a new tab with rel="noopener noreferrer". */
  external: boolean
}

/** Where `href` leads in `lng`, or null when it is empty or unsafe. */
export function resolveLink(href: string, lng: Lng): ResolvedLink | null {
  const safe = parseAddress(href, 'link')
  if (!safe) return null
  if (isExternalAddress(safe)) return { href: safe, external: true }
  if (!safe.startsWith('/')) return { href: safe, external: false }
  return { href: switchLanguagePath(safe, lng), external: false }
}

/** The attributes of an anchor for `href`, or null when it is no link. */
export function linkProps(href: string, lng: Lng) {
  const link = resolveLink(href, lng)
  if (!link) return null
  return link.external
    ? { href: link.href, target: '_blank', rel: 'noopener noreferrer' }
    : { href: link.href }
}

type SmartLinkProps = {
  href: string
  lng: Lng
  children: ReactNode
  className?: string
  /** The accessible name, when the visible content is only an image or icon. */
  label?: string
  /** Used when `href` is empty or unsafe (e.g. a card's project page); without it the content renders unlinked. */
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
