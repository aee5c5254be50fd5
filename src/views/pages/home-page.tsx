/** Home, in order: hero banner, about block, services, enterprises, founders (spec section 2). */
import { localizer } from '../../content/localize'
import type { Projects } from '../../content/projects'
import type { HomePayload } from '../../content/schemas'
import { getT } from '../../shared/i18n'
import type { Lng } from '../../shared/languages'
import { ButtonLink } from '../components/button-link'
import { PageBanner } from '../components/page-banner'
import { HomeAbout } from '../sections/home-about'
import { HomeEnterprises } from '../sections/home-enterprises'
import { HomeFounders } from '../sections/home-founders'
import { HomeServices } from '../sections/home-services'
import { SectionBoundary } from '../components/section-boundary'
import { GapMarks } from '../components/gap-marks'

/** `projects`: the enterprises payload's, which give the enterprise cards their pages (null: no links). */
export function HomePage({
  lng,
  home,
  projects = null,
}: {
  lng: Lng
  home: HomePayload
  projects?: Projects | null
}) {
  const pick = localizer(lng)
  const t = getT(lng)
  // The ru_banner / arm_banner list when it has entries for this language, otherwise banner.
  const hero = pick(home, 'banner')[0] ?? home.banner[0]
  return (
    <>
      <PageBanner
        lng={lng}
        variant="hero"
        image={hero?.img ?? ''}
        title={(hero && pick(hero, 'title')) || t('meta.siteName')}
        description={hero ? pick(hero, 'description') : ''}
      >
        {hero ? (
          <ButtonLink lng={lng} label={pick(hero, 'btnName')} href={hero.btnLink} variant="light" />
        ) : null}
      </PageBanner>
      <GapMarks place="home.hero" />
      <SectionBoundary>
        <HomeAbout lng={lng} pick={pick} about={home.aboutHome} />
      </SectionBoundary>
      <GapMarks place="home.about" />
      <SectionBoundary>
        <HomeServices lng={lng} pick={pick} home={home} t={t} />
      </SectionBoundary>
      <GapMarks place="home.services" />
      <SectionBoundary>
        <HomeEnterprises lng={lng} pick={pick} home={home} t={t} projects={projects} />
      </SectionBoundary>
      <GapMarks place="home.enterprises" />
      <SectionBoundary>
        <HomeFounders lng={lng} pick={pick} home={home} t={t} />
      </SectionBoundary>
      <GapMarks place="home.founders" />
    </>
  )
}
