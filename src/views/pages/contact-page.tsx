/** Contact: hero banner, the message form and the contact-info cards (spec section 2). */
import type { ContactData } from '../../content/schemas'
import { localizer } from '../../content/localize'
import { getT } from '../../shared/i18n'
import type { Lng } from '../../shared/languages'

export function ContactPage({ lng, contact }: { lng: Lng; contact: ContactData }) {
  const pick = localizer(lng)
  const t = getT(lng)
  return (
    <section className="banner">
      <h1>{pick(contact, 'titleContact') || t('contact.title')}</h1>
    </section>
  )
}
