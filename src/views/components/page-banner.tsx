/**
 * The banner at the top of every page: a background photo that is the page's largest paint, the
 * page's one h1, sanitized HTML text and an optional button.
 */
import type { ReactNode } from 'react'
import type { Lng } from '../../shared/languages'
import { wholeWordsStyle } from '../../shared/longest-word'
import { FALLBACK, Image } from './image'
import { RichText } from './rich-text'

type PageBannerProps = {
  lng: Lng
  image: string
  title: string
  /** CMS HTML. */
  description?: string
  /** The home page's hero is taller than the other pages' banners. */
  variant?: 'hero' | 'page'
  children?: ReactNode
}

export function PageBanner({
  lng,
  image,
  title,
  description = '',
  variant = 'page',
  children,
}: PageBannerProps) {
  return (
    <section className={`page-banner page-banner--${variant}`} aria-labelledby="page-title">
      <Image
        className="page-banner__image"
        src={image}
        fallback={FALLBACK.banner}
        alt={title}
        width={1920}
        height={1080}
        layout="banner"
        priority
      />
      <div className="container page-banner__content">
        <h1 id="page-title" className="page-banner__title" style={wholeWordsStyle(title)}>
          {title}
        </h1>
        <RichText className="rich-text page-banner__text" html={description} lng={lng} />
        {children}
      </div>
    </section>
  )
}
