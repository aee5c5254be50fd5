/** Home's founders: a title, round photos with names, and an optional button. Hidden when empty. */
import type { Pick } from '../../content/localize'
import type { HomePayload } from '../../content/schemas'
import type { Translate } from '../../shared/i18n'
import type { Lng } from '../../shared/languages'
import { ButtonLink } from '../components/button-link'
import { Image, imageSrc } from '../components/image'
import { SectionHeading } from '../components/section-heading'
import { wholeWordsStyle } from '../../shared/longest-word'

type HomeFoundersProps = { lng: Lng; pick: Pick; home: HomePayload; t: Translate }

export function HomeFounders({ lng, pick, home, t }: HomeFoundersProps) {
  if (home.foundersHome.length === 0) return null
  return (
    <section className="section section--tinted home-founders" aria-labelledby="founders-title">
      <div className="container">
        <SectionHeading
          id="founders-title"
          title={pick(home, 'foundersTitle') || t('ui.foundersTitle')}
        />
        <ul className="founder-list">
          {home.foundersHome.map((founder, index) => {
            const name = pick(founder, 'title')
            const photo = imageSrc(founder.img)
            return (
              <li key={String(founder.id || index)} className="founder">
                {photo ? (
                  // The name is the caption right below: an alt repeating it is read twice (axe image-redundant-alt).
                  <Image
                    className="founder__photo"
                    src={photo}
                    alt=""
                    width={200}
                    height={200}
                    layout="founder"
                  />
                ) : (
                  // No photo: the initials in the same round frame.
                  <span className="founder__photo founder__photo--initials" aria-hidden="true">
                    {initials(name)}
                  </span>
                )}
                <h3 className="founder__name" style={wholeWordsStyle(name)}>
                  {name}
                </h3>
              </li>
            )
          })}
        </ul>
        <div className="section-actions">
          <ButtonLink
            lng={lng}
            label={pick(home, 'foundersBtnName')}
            href={home.foundersBtnLink}
            variant="outline"
          />
        </div>
      </div>
    </section>
  )
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('')
}
