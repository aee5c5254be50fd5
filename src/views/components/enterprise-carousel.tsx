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
  /** The project's own page in the visitor's language, linked from the title and the photo; '' for none. */
  page: string
  href: string
  external: boolean
  button: string
  /** The card's title, read after a button label of the dictionary's "Learn more" (see LinkContext). */
  about: string
}

/**
 * `pageOf` gives an item's project page (localized), or undefined; a button without a link of its
 * own leads there, else to `listPage` (the enterprises list).
 */
export function toSlides(
  items: EnterpriseItem[],
  pick: Pick,
  lng: Lng,
  learnMore: string,
  pageOf: (item: EnterpriseItem) => string | undefined,
  listPage: string
): EnterpriseSlide[] {
  return items.map((item, index) => {
    const page = pageOf(item)
    const link = resolveLink(item.btnLink, lng) ?? resolveLink(page ?? listPage, lng)!
    return {
      id: String(item.id || index),
      page: page ?? '',
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
              {slide.page ? (
                // The title's link is the one a keyboard or a screen reader meets; the photo is the same link for a pointer.
                <a
                  className="enterprise-card__photo-link"
                  href={slide.page}
                  tabIndex={-1}
                  aria-hidden="true"
                >
                  <SlideImage slide={slide} />
                </a>
              ) : (
                <SlideImage slide={slide} />
              )}
              <div className="enterprise-card__body">
                {slide.title ? (
                  <h3 className="enterprise-card__title" style={wholeWordsStyle(slide.title)}>
                    {slide.page ? <a href={slide.page}>{slide.title}</a> : slide.title}
                  </h3>
                ) : null}
                <div
                  className="rich-text enterprise-card__text"
                  dangerouslySetInnerHTML={{ __html: slide.html }}
                />
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

function SlideImage({ slide }: { slide: EnterpriseSlide }) {
  return (
    <Image
      className="enterprise-card__image"
      src={slide.image}
      fallback={FALLBACK.enterprise}
      alt={slide.title}
      width={640}
      height={440}
      layout="card"
    />
  )
}
