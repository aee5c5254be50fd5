/**
 * One enterprise as an image-and-text row (home with up to 3 items, and the enterprises page):
 * image with fallback, optional linked icon, title, HTML description and an optional button.
 * Rows alternate: odd rows put the image on the other side. The title and the photo link to the
 * project's own page when it has one (src/content/projects.ts); the button keeps the item's link.
 */
import type { Pick } from '../../content/localize'
import type { EnterpriseItem } from '../../content/schemas'
import { projectPath, type Project } from '../../content/projects'
import { localizePath, type Lng } from '../../shared/languages'
import { ButtonLink } from './button-link'
import { FALLBACK, Image } from './image'
import { hasText } from '../../content/has-text'
import { RichText } from './rich-text'
import { IconLink } from './icon-link'

/**
 * A row's links to its project's page in `lng`: the title and photo, and the button's fallback
 * (spec section 2's `/enterprise-detail`, replaced: docs/decisions/0018-project-pages.md). Without a
 * page, `listFallback` (the enterprises list, from the home page) or no button.
 */
export function projectLinks(
  project: Project | null | undefined,
  lng: Lng,
  listFallback?: string
): { page?: string; buttonFallback?: string } {
  const page = project ? localizePath(projectPath(project), lng) : undefined
  const buttonFallback = page ?? listFallback
  return { ...(page && { page }), ...(buttonFallback && { buttonFallback }) }
}

/** Items with neither a title nor a description are not shown. */
export function visibleEnterprises(items: EnterpriseItem[], pick: Pick): EnterpriseItem[] {
  return items.filter(
    (item) => pick(item, 'title').trim() !== '' || hasText(pick(item, 'description'))
  )
}

type EnterpriseRowProps = {
  lng: Lng
  pick: Pick
  item: EnterpriseItem
  index: number
  /** h2 on the enterprises page, h3 inside the home page's section. */
  headingLevel: 2 | 3
  /** The project's page in the visitor's language, when the item has one. */
  page?: string | undefined
  /** Where the button leads without a link of its own: the project's page, else (home) the list. */
  buttonFallback?: string | undefined
}

export function EnterpriseRow({
  lng,
  pick,
  item,
  index,
  headingLevel,
  page,
  buttonFallback,
}: EnterpriseRowProps) {
  const title = pick(item, 'title')
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const buttonLabel = pick(item, 'btnName')
  const image = (
    <Image
      src={item.img}
      fallback={FALLBACK.enterprise}
      alt={title}
      width={800}
      height={600}
      layout="split"
    />
  )
  return (
    <article className={index % 2 === 1 ? 'feature-row feature-row--reverse' : 'feature-row'}>
      <div className="feature-row__media">
        {/* The title's link is the one a keyboard or a screen reader meets; the photo is the same link for a pointer. */}
        {page ? (
          <a className="feature-row__photo-link" href={page} tabIndex={-1} aria-hidden="true">
            {image}
          </a>
        ) : (
          image
        )}
      </div>
      <div className="feature-row__body">
        <IconLink className="feature-row__icon" item={item} lng={lng} title={title} />
        {title ? (
          <Heading className="feature-row__title">
            {page ? <a href={page}>{title}</a> : title}
          </Heading>
        ) : null}
        <RichText html={pick(item, 'description')} lng={lng} />
        <ButtonLink
          lng={lng}
          label={buttonLabel}
          href={item.btnLink}
          fallback={buttonFallback}
          about={title}
        />
      </div>
    </article>
  )
}
