/** Home's about block: image beside title, description and an optional button. */
import type { Pick } from '../../content/localize'
import type { HomePayload } from '../../content/schemas'
import type { Lng } from '../../shared/languages'
import { ButtonLink } from '../components/button-link'
import { FALLBACK, Image } from '../components/image'
import { hasText } from '../../content/has-text'
import { RichText } from '../components/rich-text'
import { wholeWordsStyle } from '../../shared/longest-word'

type HomeAboutProps = { lng: Lng; pick: Pick; about: HomePayload['aboutHome'] }

export function HomeAbout({ lng, pick, about }: HomeAboutProps) {
  const title = pick(about, 'title')
  const description = pick(about, 'description')
  if (!title.trim() && !hasText(description)) return null
  return (
    <section className="section home-about" aria-labelledby="home-about-title">
      <div className="container split">
        <div className="split__media home-about__media">
          <Image
            src={about.img}
            fallback={FALLBACK.about}
            alt={title}
            width={800}
            height={600}
            layout="split"
          />
        </div>
        <div className="split__body">
          <h2 id="home-about-title" className="section-title" style={wholeWordsStyle(title)}>
            {title}
          </h2>
          <RichText html={description} lng={lng} />
          <ButtonLink lng={lng} label={pick(about, 'btnName')} href={about.btnLink} about={title} />
        </div>
      </div>
    </section>
  )
}
