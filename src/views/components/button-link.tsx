/** A call-to-action button: a SmartLink styled as a button, shown only with a label and somewhere to go. */
import type { Lng } from '../../shared/languages'
import { linkProps, SmartLink } from './smart-link'

type ButtonLinkProps = {
  lng: Lng
  label: string
  href: string
  /** Where the button leads when `href` is empty, e.g. '/enterprise-detail'. */
  fallback?: string
  variant?: 'primary' | 'outline' | 'light'
}

export function ButtonLink({ lng, label, href, fallback, variant = 'primary' }: ButtonLinkProps) {
  const leads = linkProps(href, lng) ?? (fallback ? linkProps(fallback, lng) : null)
  if (!label.trim() || !leads) return null
  return (
    <SmartLink className={`button button--${variant}`} href={href} lng={lng} fallback={fallback}>
      {label}
    </SmartLink>
  )
}
