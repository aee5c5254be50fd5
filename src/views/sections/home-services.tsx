/** Home's services grid: icon, title linking to the services target, description. Hidden when empty. */
import type { Pick } from '../../content/localize'
import type { HomePayload } from '../../content/schemas'
import type { Translate } from '../../shared/i18n'
import type { Lng } from '../../shared/languages'
import { FALLBACK, Image } from '../components/image'
import { RichText } from '../components/rich-text'
import { SectionHeading } from '../components/section-heading'
import { SmartLink } from '../components/smart-link'
import { wholeWordsStyle } from '../../shared/longest-word'

/** Where every service title leads (spec section 2). */
export const SERVICES_LINK = '/services'

type HomeServicesProps = { lng: Lng; pick: Pick; home: HomePayload; t: Translate }

export function HomeServices({ lng, pick, home, t }: HomeServicesProps) {
  if (home.servicesHome.length === 0) return null
  return (
    <section
      id="services"
      className="section section--tinted home-services"
      aria-labelledby="services-title"
    >
      <div className="container">
        <SectionHeading
          id="services-title"
          title={pick(home, 'servicesTitle') || t('ui.servicesTitle')}
          subtitle={pick(home, 'servicesSubTitle')}
        />
        <ul
          className="service-grid"
          style={wholeWordsStyle(
            home.servicesHome.map((service) => pick(service, 'title')).join(' ')
          )}
        >
          {home.servicesHome.map((service, index) => {
            const title = pick(service, 'title')
            return (
              <li key={index} className="service-card">
                <Image
                  className="service-card__icon"
                  src={service.img}
                  fallback={FALLBACK.serviceIcon}
                  alt=""
                  width={64}
                  height={64}
                  layout="serviceIcon"
                />
                <h3 className="service-card__title">
                  <SmartLink href={SERVICES_LINK} lng={lng}>
                    {title}
                  </SmartLink>
                </h3>
                <RichText
                  html={pick(service, 'description')}
                  lng={lng}
                  className="rich-text service-card__text"
                />
              </li>
            )
          })}
        </ul>
      </div>
    </section>
  )
}
