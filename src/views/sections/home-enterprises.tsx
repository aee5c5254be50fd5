/**
 * Home's enterprises block: title and subtitle (with dictionary fallbacks), then up to three items
 * as alternating rows, or more as a carousel; an optional button below.
 */
import type { Pick } from '../../content/localize'
import { projectWithIdOf, type Projects } from '../../content/projects'
import { PROJECTS_PATH } from '../../shared/site-paths'
import type { EnterpriseItem, HomePayload } from '../../content/schemas'
import type { Translate } from '../../shared/i18n'
import type { Lng } from '../../shared/languages'
import { ButtonLink } from '../components/button-link'
import { EnterpriseCarousel, toSlides } from '../components/enterprise-carousel'
import { EnterpriseRow, projectLinks, visibleEnterprises } from '../components/enterprise-row'
import { SectionHeading } from '../components/section-heading'

/** More items than this become a carousel (spec section 2). */
export const MAX_ROWS = 3

type HomeEnterprisesProps = {
  lng: Lng
  pick: Pick
  home: HomePayload
  t: Translate
  projects: Projects | null
}

export function HomeEnterprises({ lng, pick, home, t, projects }: HomeEnterprisesProps) {
  const items = visibleEnterprises(home.enterprisesHome, pick)
  if (items.length === 0) return null
  const title = pick(home, 'enterprisesTitle') || t('ui.enterprisesTitle')
  const links = (item: EnterpriseItem) =>
    projectLinks(projects && projectWithIdOf(projects, item), lng, PROJECTS_PATH)
  return (
    <section className="section home-enterprises" aria-labelledby="enterprises-title">
      <div className="container">
        <SectionHeading
          id="enterprises-title"
          title={title}
          subtitle={pick(home, 'enterprisesSubTitle') || t('ui.enterprisesSubtitle')}
        />
        {items.length > MAX_ROWS ? (
          <EnterpriseCarousel
            slides={toSlides(
              items,
              pick,
              lng,
              t('ui.learnMore'),
              (item) => links(item).page,
              PROJECTS_PATH
            )}
            label={title}
            controls={{
              previousLabel: t('ui.previousSlide'),
              nextLabel: t('ui.nextSlide'),
              pauseLabel: t('ui.pauseCarousel'),
              playLabel: t('ui.playCarousel'),
            }}
          />
        ) : (
          <div className="feature-rows">
            {items.map((item, index) => (
              <EnterpriseRow
                key={String(item.id || index)}
                lng={lng}
                pick={pick}
                item={item}
                index={index}
                headingLevel={3}
                {...links(item)}
              />
            ))}
          </div>
        )}
        <div className="section-actions">
          <ButtonLink
            lng={lng}
            label={pick(home, 'enterprisesBtnName')}
            href={home.enterprisesBtnLink}
            variant="outline"
          />
        </div>
      </div>
    </section>
  )
}
