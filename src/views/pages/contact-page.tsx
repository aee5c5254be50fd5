/**
 * Contact (spec section 2): hero banner, the form area (beside the second banner image when there
 * is one, centred otherwise), the contact-info cards and the 'Follow Us' links. The form itself
 * comes in through the `form` slot.
 */
import type { ReactNode } from 'react'
import { localizer } from '../../content/localize'
import type { ContactData } from '../../content/schemas'
import { getT } from '../../shared/i18n'
import type { Lng } from '../../shared/languages'
import { imageSrc, Image } from '../components/image'
import { PageBanner } from '../components/page-banner'
import { ContactInfo } from '../sections/contact-info'
import { SectionBoundary } from '../components/section-boundary'
import { GapMarks } from '../components/gap-marks'

type ContactPageProps = {
  lng: Lng
  contact: ContactData
  /** The message form, rendered inside `.contact-form-area`. */
  form?: ReactNode
}

export function ContactPage({ lng, contact, form }: ContactPageProps) {
  const pick = localizer(lng)
  const t = getT(lng)
  const title = pick(contact, 'titleContact') || t('contact.title')
  const sideImage = imageSrc(contact.secondBanner)
  return (
    <>
      <PageBanner
        lng={lng}
        image={contact.firstBanner}
        title={title}
        description={pick(contact, 'bannerDesc')}
      />
      <GapMarks place="contact.banner" />
      <section
        className="section contact-main"
        aria-label={pick(contact, 'contactFormTitle') || t('contact.formTitle')}
      >
        <div
          className={
            sideImage
              ? 'container contact-layout contact-layout--split'
              : 'container contact-layout contact-layout--centred'
          }
        >
          {sideImage ? (
            <div className="contact-layout__media">
              <Image
                className="contact-layout__image"
                src={sideImage}
                alt={title}
                width={720}
                height={880}
                layout="contact"
              />
            </div>
          ) : null}
          <div className="contact-form-area">{form}</div>
        </div>
      </section>
      <GapMarks place="contact.form" />
      <SectionBoundary>
        <ContactInfo lng={lng} pick={pick} contact={contact} t={t} />
      </SectionBoundary>
      <GapMarks place="contact.info" />
    </>
  )
}
