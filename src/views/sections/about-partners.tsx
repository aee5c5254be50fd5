/** About's third section: a background photo behind the description, and partner logos that link out. */
import type { Pick } from '../../content/localize'
import type { AboutPayload } from '../../content/schemas'
import type { Translate } from '../../shared/i18n'
import type { Lng } from '../../shared/languages'
import { Image, imageSrc } from '../components/image'
import { hasText } from '../../content/has-text'
import { RichText } from '../components/rich-text'
import { SmartLink } from '../components/smart-link'
import { wholeWordsStyle } from '../../shared/longest-word'

type AboutPartnersProps = { lng: Lng; pick: Pick; about: AboutPayload; t: Translate }

export function AboutPartners({ lng, pick, about, t }: AboutPartnersProps) {
  const description = pick(about.thirdImage, 'description')
  const partners = about.thirdBanner.filter(
    (partner) => imageSrc(partner.img) || pick(partner, 'title').trim()
  )
  if (!hasText(description) && partners.length === 0) return null
  return (
    <section className="section about-partners" aria-labelledby="partners-title">
      <Image
        className="about-partners__background"
        src={about.thirdImage.img}
        alt=""
        width={1920}
        height={1080}
        layout="banner"
      />
      <div className="container about-partners__content">
        <h2
          id="partners-title"
          className="section-heading__title"
          style={wholeWordsStyle(t('ui.partners'))}
        >
          {t('ui.partners')}
        </h2>
        <RichText
          html={description}
          lng={lng}
          className="rich-text rich-text--lead about-partners__text"
        />
        {partners.length > 0 ? (
          <ul className="partner-list">
            {partners.map((partner, index) => {
              const name = pick(partner, 'title')
              return (
                <li key={String(partner.id || index)} className="partner">
                  <SmartLink
                    className="partner__link"
                    href={partner.imgLink}
                    lng={lng}
                    label={name || undefined}
                  >
                    {imageSrc(partner.img) ? (
                      <Image
                        className="partner__logo"
                        src={partner.img}
                        alt={name}
                        width={160}
                        height={80}
                        layout="partner"
                      />
                    ) : (
                      <span className="partner__name">{name}</span>
                    )}
                  </SmartLink>
                </li>
              )
            })}
          </ul>
        ) : null}
      </div>
    </section>
  )
}
