/** A call-to-action button: a SmartLink styled as a button, shown only with a label and somewhere to go. */
import type { Lng } from '../../shared/languages'
import { linkProps, SmartLink } from './smart-link'

type ButtonLinkProps = {
  lng: Lng
  label: string
  href: string
  /** Where the button leads when `href` is empty, e.g. a card's project page. */
  fallback?: string
  variant?: 'primary' | 'outline' | 'light'
  /**
   * What the button is about (its section's or card's title), for a label such as "Learn more"
   * that does not say: read after the label by screen readers and crawlers, not shown
   * (https://www.w3.org/WAI/WCAG22/Understanding/link-purpose-in-context).
   */
  about?: string
}

export function ButtonLink({
  lng,
  label,
  href,
  fallback,
  variant = 'primary',
  about,
}: ButtonLinkProps) {
  const leads = linkProps(href, lng) ?? (fallback ? linkProps(fallback, lng) : null)
  if (!label.trim() || !leads) return null
  return (
    <SmartLink className={`button button--${variant}`} href={href} lng={lng} fallback={fallback}>
      {label}
      <LinkContext about={about} />
    </SmartLink>
  )
}

/** `about` as visually hidden text after a link's label, or nothing when there is none. */
export function LinkContext({ about }: { about?: string | undefined }) {
  return about?.trim() ? <span className="visually-hidden">{`: ${about.trim()}`}</span> : null
}
