/** About's mission and vision: title, subtitle, description and the mission cards. */
import type { Pick } from '../../content/localize'
import type { AboutPayload } from '../../content/schemas'
import type { Lng } from '../../shared/languages'
import { Image } from '../components/image'
import { hasText } from '../../content/has-text'
import { RichText } from '../components/rich-text'
import { wholeWordsStyle } from '../../shared/longest-word'

type AboutMissionProps = { lng: Lng; pick: Pick; about: AboutPayload }

export function AboutMission({ lng, pick, about }: AboutMissionProps) {
  const title = pick(about, 'titleMission')
  const subtitle = pick(about, 'subTitleMission')
  const description = pick(about, 'descriptionMission')
  // Cards with neither a title nor a description are skipped (spec section 2).
  const cards = about.missions.filter(
    (card) => pick(card, 'title').trim() || hasText(pick(card, 'description'))
  )
  if (!title && !subtitle && !hasText(description) && cards.length === 0) return null
  return (
    <section
      className="section section--tinted about-mission"
      aria-labelledby={title ? 'mission-title' : undefined}
    >
      <div className="container">
        <div className="section-heading section-heading--center">
          {subtitle ? <p className="eyebrow">{subtitle}</p> : null}
          {title ? (
            <h2
              id="mission-title"
              className="section-heading__title"
              style={wholeWordsStyle(title)}
            >
              {title}
            </h2>
          ) : null}
          <RichText html={description} lng={lng} className="rich-text section-heading__text" />
        </div>
        {cards.length > 0 ? (
          <ul
            className="mission-grid"
            style={wholeWordsStyle(cards.map((card) => pick(card, 'title')).join(' '))}
          >
            {cards.map((card, index) => {
              const cardTitle = pick(card, 'title')
              return (
                <li key={String(card.id || index)} className="mission-card">
                  <Image
                    className="mission-card__image"
                    src={card.img}
                    alt={cardTitle}
                    width={480}
                    height={300}
                    layout="mission"
                  />
                  {cardTitle ? <h3 className="mission-card__title">{cardTitle}</h3> : null}
                  <RichText
                    html={pick(card, 'description')}
                    lng={lng}
                    className="rich-text mission-card__text"
                  />
                </li>
              )
            })}
          </ul>
        ) : null}
      </div>
    </section>
  )
}
