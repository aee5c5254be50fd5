/**
 * About (spec section 2): first banner; title and description with the optional quote; a second,
 * full-width banner; mission and vision with cards; a third section with a background image, text
 * and partner logos.
 */
import { localizer } from '../../content/localize'
import type { AboutPayload } from '../../content/schemas'
import { getT } from '../../shared/i18n'
import type { Lng } from '../../shared/languages'
import { FALLBACK, Image } from '../components/image'
import { PageBanner } from '../components/page-banner'
import { hasText } from '../../content/has-text'
import { RichText } from '../components/rich-text'
import { AboutMission } from '../sections/about-mission'
import { AboutPartners } from '../sections/about-partners'
import { SectionBoundary } from '../components/section-boundary'
import { wholeWordsStyle } from '../../shared/longest-word'
import { GapMarks } from '../components/gap-marks'

export function AboutPage({ lng, about }: { lng: Lng; about: AboutPayload }) {
  const pick = localizer(lng)
  const t = getT(lng)
  const bannerTitle = pick(about.firstBanner, 'titleBanner')
  const title = pick(about, 'title')
  const quote = pick(about.titleDescSection, 'description')
  const hasIntro = (bannerTitle && title) || hasText(pick(about, 'description')) || hasText(quote)
  return (
    <>
      <PageBanner
        lng={lng}
        image={about.firstBanner.img}
        title={bannerTitle || title || t('ui.about')}
        description={pick(about.firstBanner, 'description')}
      />
      <GapMarks place="about.intro" />
      <SectionBoundary>
        {hasIntro ? (
          <section
            className="section about-intro"
            aria-labelledby={bannerTitle && title ? 'about-intro-title' : undefined}
          >
            <div className="container about-intro__grid">
              <div className="about-intro__text">
                {bannerTitle && title ? (
                  <h2
                    id="about-intro-title"
                    className="section-title"
                    style={wholeWordsStyle(title)}
                  >
                    {title}
                  </h2>
                ) : null}
                <RichText
                  html={pick(about, 'description')}
                  lng={lng}
                  className="rich-text rich-text--lead"
                />
              </div>
              {hasText(quote) || about.titleDescSection.img.trim() ? (
                <figure className="quote-card">
                  <Image
                    className="quote-card__image"
                    src={about.titleDescSection.img}
                    alt={title}
                    width={640}
                    height={480}
                    layout="quote"
                  />
                  {hasText(quote) ? (
                    <blockquote className="quote-card__text">
                      <RichText html={quote} lng={lng} />
                    </blockquote>
                  ) : null}
                </figure>
              ) : null}
            </div>
          </section>
        ) : null}
      </SectionBoundary>
      <div className="wide-banner">
        <Image
          className="wide-banner__image"
          src={about.secondBanner.img}
          fallback={FALLBACK.banner}
          alt={pick(about, 'titleMission') || title || bannerTitle}
          width={1920}
          height={720}
          layout="banner"
        />
      </div>
      <GapMarks place="about.secondBanner" />
      <SectionBoundary>
        <AboutMission lng={lng} pick={pick} about={about} />
      </SectionBoundary>
      <GapMarks place="about.mission" />
      <SectionBoundary>
        <AboutPartners lng={lng} pick={pick} about={about} t={t} />
      </SectionBoundary>
      <GapMarks place="about.partners" />
    </>
  )
}
