/**
 * The company as schema.org structured data, in every page's head: a GeneralContractor (a
 * LocalBusiness, hence an Organization) with address, phone, e-mail and social profiles from the
 * contact data. https://developers.google.com/search/docs/appearance/structured-data/local-business
 *
 * A `<script type="application/ld+json">` is a data block the browser never executes, so a strict
 * script-src CSP allows it; the JSON is escaped so no value can close the element.
 */
import { pickLocalized } from '../../content/localize'
import type { ContactData } from '../../content/schemas'
import { getT } from '../../shared/i18n'
import { localizePath, type Lng } from '../../shared/languages'
import { serializeProps } from '../island'
import { SOCIAL_NETWORKS } from '../sections/contact-info'
import { resolveLink } from './smart-link'

type OrganizationInput = { lng: Lng; origin: string; contact: ContactData | null }

export function OrganizationJsonLd(props: OrganizationInput) {
  return (
    <script
      type="application/ld+json"
      dangerouslySetInnerHTML={{ __html: serializeProps(organizationOf(props)) }}
    />
  )
}

/** The JSON-LD object; fields without a value are left out rather than sent empty. */
export function organizationOf({
  lng,
  origin,
  contact,
}: OrganizationInput): Record<string, unknown> {
  const t = getT(lng)
  const phone = contact?.phoneNumber.trim() ?? ''
  const email = contact?.contactEmail.trim() ?? ''
  const address = contact ? pickLocalized(contact, 'address', lng).trim() : ''
  const sameAs = contact
    ? SOCIAL_NETWORKS.flatMap(([key]) => {
        const link = resolveLink(contact[key].trim(), lng)
        return link?.external ? [link.href] : []
      })
    : []
  const logo = `${origin}/logo.png`
  return {
    '@context': 'https://schema.org',
    '@type': 'GeneralContractor',
    '@id': `${origin}/#organization`,
    name: t('meta.siteName'),
    description: t('meta.description'),
    url: `${origin}${localizePath('/', lng)}`,
    logo,
    image: logo,
    ...(phone && { telephone: phone }),
    ...(email && { email }),
    ...(address && {
      // The backend gives the address as one line; the company is in Yerevan (spec section 1).
      address: {
        '@type': 'PostalAddress',
        streetAddress: address,
        addressLocality: 'Yerevan',
        addressCountry: 'AM',
      },
    }),
    ...(sameAs.length > 0 && { sameAs }),
  }
}
