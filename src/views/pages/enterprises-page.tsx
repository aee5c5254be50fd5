/**
 * Enterprises: the banner, then the enterprise items alternating left and right (spec section 2),
 * each linked to its project's page when it has one.
 */
import { localizer } from '../../content/localize'
import { projectsOf, type Projects } from '../../content/projects'
import type { EnterprisesPayload } from '../../content/schemas'
import { getT } from '../../shared/i18n'
import type { Lng } from '../../shared/languages'
import { EnterpriseRow, projectLinks, visibleEnterprises } from '../components/enterprise-row'
import { PageBanner } from '../components/page-banner'
import { SectionBoundary } from '../components/section-boundary'
import { GapMarks } from '../components/gap-marks'

export function EnterprisesPage({
  lng,
  page,
  projects = projectsOf(page),
}: {
  lng: Lng
  page: EnterprisesPayload
  projects?: Projects
}) {
  const pick = localizer(lng)
  const t = getT(lng)
  const items = visibleEnterprises(page.enterprises, pick)
  const title = pick(page.banner, 'titleBanner') || t('ui.enterprisesTitle')
  return (
    <>
      <PageBanner
        lng={lng}
        image={page.banner.img}
        title={title}
        description={pick(page.banner, 'description')}
      />
      <GapMarks place="enterprises.banner" />
      {items.length > 0 ? (
        <section className="section enterprises-list">
          <div className="container feature-rows">
            {items.map((item, index) => (
              <SectionBoundary key={String(item.id || index)}>
                <EnterpriseRow
                  lng={lng}
                  pick={pick}
                  item={item}
                  index={index}
                  headingLevel={2}
                  {...projectLinks(projects.byItem.get(item), lng)}
                />
              </SectionBoundary>
            ))}
          </div>
        </section>
      ) : null}
      <GapMarks place="enterprises.list" />
    </>
  )
}
