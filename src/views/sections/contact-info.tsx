/**
 * The contact-info cards (phone as tel:, email as mailto:, location as a maps search in a new tab),
 * each only when it has a value, and the 'Follow Us' links, each only when present.
 */
import type { Pick } from '../../content/localize'
import type { ContactData } from '../../content/schemas'
import type { Translate } from '../../shared/i18n'
import type { Lng } from '../../shared/languages'
import { Icon, type IconName } from '../components/icons'
import { RichText } from '../components/rich-text'
import { linkProps, SmartLink } from '../components/smart-link'
import { wholeWordsStyle } from '../../shared/longest-word'

/** The social networks of the contact payload, in display order, with their names. */
export const SOCIAL_NETWORKS = [
  ['facebook', 'Facebook'],
  ['instagram', 'Instagram'],
  ['linkedin', 'LinkedIn'],
  ['twitter', 'X (Twitter)'],
  ['youtube', 'YouTube'],
  ['pinterest', 'Pinterest'],
  ['tiktok', 'TikTok'],
] as const satisfies readonly (readonly [keyof ContactData & IconName, string])[]

/** A maps search for `address`, opened in a new tab. */
export function mapsSearchUrl(address: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`
}

type Card = { icon: IconName; title: string; value: string; href: string }

type ContactInfoProps = { lng: Lng; pick: Pick; contact: ContactData; t: Translate }

export function ContactInfo({ lng, pick, contact, t }: ContactInfoProps) {
  const phone = contact.phoneNumber.trim()
  const email = contact.contactEmail.trim()
  const address = pick(contact, 'address').trim()
  const cards: Card[] = []
  // Shown with no-break spaces and hyphens, so the number never wraps across lines.
  if (phone)
    cards.push({
      icon: 'phone',
      title: pick(contact, 'phoneTitle') || t('contact.phone'),
      value: phone.replace(/ /g, '\u00a0').replace(/-/g, '\u2011'),
      href: `tel:${phone.replace(/[^\d+]/g, '')}`,
    })
  if (email)
    cards.push({
      icon: 'mail',
      title: pick(contact, 'emailTitle') || t('contact.email'),
      value: email,
      href: `mailto:${email}`,
    })
  if (address)
    cards.push({
      icon: 'location',
      title: pick(contact, 'locationTitle') || t('contact.location'),
      value: address,
      href: mapsSearchUrl(address),
    })
  const socials = SOCIAL_NETWORKS.flatMap(([key, name]) => {
    const props = linkProps(contact[key], lng)
    return props ? [{ key, name, props }] : []
  })
  if (cards.length === 0 && socials.length === 0) return null
  return (
    <section className="section section--tinted contact-info" aria-labelledby="contact-info-title">
      <div className="container">
        <div className="section-heading section-heading--center">
          <h2
            id="contact-info-title"
            className="section-heading__title"
            style={wholeWordsStyle(t('contact.titleAlt'))}
          >
            {t('contact.titleAlt')}
          </h2>
          <RichText
            html={pick(contact, 'description')}
            lng={lng}
            className="rich-text section-heading__text"
          />
        </div>
        {cards.length > 0 ? (
          <ul
            className="info-cards"
            style={wholeWordsStyle(cards.map((card) => card.title).join(' '))}
          >
            {cards.map((card) => (
              <li key={card.icon} className="info-card">
                <span className="info-card__icon">
                  <Icon name={card.icon} />
                </span>
                <h3 className="info-card__title">{card.title}</h3>
                <SmartLink className="info-card__value" href={card.href} lng={lng}>
                  {card.value}
                </SmartLink>
              </li>
            ))}
          </ul>
        ) : null}
        {socials.length > 0 ? (
          <div className="follow-us">
            <h3 className="follow-us__title" style={wholeWordsStyle(t('contact.followUs'))}>
              {t('contact.followUs')}
            </h3>
            <ul className="social-links">
              {socials.map(({ key, name, props }) => (
                <li key={key}>
                  <a className="social-links__link" aria-label={name} title={name} {...props}>
                    <Icon name={key} />
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </section>
  )
}
