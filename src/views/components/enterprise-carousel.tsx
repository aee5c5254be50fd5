/**
 * More than three enterprises on the home page: a carousel (spec section 9: 1 slide per view on
 * phones, 2 from 768 px, 3 from 1024 px). The server renders a horizontal scroll-snap list that
 * works on its own; the carousel island makes it loop and autoplay.
 *
 * `toSlides` turns payload items into plain, serializable slides (HTML already sanitized, links
 * already resolved), which is also what an island can take as props.
 */
import type { Pick } from '../../content/localize'
import type { EnterpriseItem } from '../../content/schemas'
import type { Lng } from '../../shared/languages'
import { LinkContext } from './button-link'
import { ENTERPRISE_FALLBACK_LINK } from './enterprise-row'
import { FALLBACK, Image, imageSrc } from './image'
import { localizeHtml } from './rich-text'
import { resolveLink } from './smart-link'
import type { CarouselProps } from '../../../client/islands/carousel'
import { Island } from '../island'
import { wholeWordsStyle } from '../../shared/longest-word'

export type EnterpriseSlide = {
  id: string
  title: string
  /** Sanitized HTML. */
  html: string
  /** The photo's address, or '' for the bundled enterprise image. */
  image: string
  href: string
  external: boolean
  button: string
  /** The card's title, read after a button label of the dictionary's "Learn more" (see LinkContext). */
  about: string
}

export function toSlides(items: EnterpriseItem[], pick: Pick, lng: Lng, learnMore: string): EnterpriseSlide[] {
  return items.map((item, index) => {
    const link = resolveLink(item.btnLink, lng) ?? resolveLink(ENTERPRISE_FALLBACK_LINK, lng)!
    return {
      id: String(item.id || index),
      title: pick(item, 'title'),
      html: localizeHtml(pick(item, 'description'), lng),
      image: imageSrc(item.img),
      href: link.href,
      external: link.external,
      button: pick(item, 'btnName') || learnMore,
      about: pick(item, 'btnName') ? '' : pick(item, 'title'),
    }
  })
}

type EnterpriseCarouselProps = {
  slides: EnterpriseSlide[]
  /**
   * Accessible name of the carousel: a group, not a region, inside the section of the same name; the
   * list gives each slide its position (https://www.w3.org/WAI/ARIA/apg/patterns/carousel/).
   */
  label: string
  /** The carousel island's control labels: the island turns this list into a Swiper carousel. */
  controls: CarouselProps
}

export function EnterpriseCarousel({ slides, label, controls }: EnterpriseCarouselProps) {
  return (
    <div className="carousel" role="group" aria-roledescription="carousel" aria-label={label}>
      <ul className="carousel__track">
        {slides.map((slide) => (
          <li key={slide.id} className="carousel__slide">
            <article className="enterprise-card">
              <Image className="enterprise-card__image" src={slide.image} fallback={FALLBACK.enterprise} alt={slide.title} width={640} height={440} layout="card" />
              <div className="enterprise-card__body">
                {slide.title ? <h3 className="enterprise-card__title" style={wholeWordsStyle(slide.title)}>{slide.title}</h3> : null}
                <div className="rich-text enterprise-card__text" dangerouslySetInnerHTML={{ __html: slide.html }} />
                <a
                  className="enterprise-card__link"
                  href={slide.href}
                  {...(slide.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                >
                  {slide.button}
                  <LinkContext about={slide.about} />
                </a>
              </div>
            </article>
          </li>
        ))}
      </ul>
      <Island name="carousel" props={controls} />
    </div>
  )
}
