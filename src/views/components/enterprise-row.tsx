/**
 * One enterprise as an image-and-text row (home with up to 3 items, and the enterprises page):
 * image with fallback, optional linked icon, title, HTML description and an optional button.
 * Rows alternate: odd rows put the image on the other side.
 */
import type { Pick } from '../../content/localize'
import type { EnterpriseItem } from '../../content/schemas'
import type { Lng } from '../../shared/languages'
import { ButtonLink } from './button-link'
import { FALLBACK, Image } from './image'
import { hasText, RichText } from './rich-text'
import { resolveLink, SmartLink } from './smart-link'

/** Where an enterprise's button leads when it has no link of its own (spec section 2). */
export const ENTERPRISE_FALLBACK_LINK = '/enterprise-detail'

/** Items with neither a title nor a description are not shown. */
export function visibleEnterprises(items: EnterpriseItem[], pick: Pick): EnterpriseItem[] {
  return items.filter((item) => pick(item, 'title').trim() !== '' || hasText(pick(item, 'description')))
}

type EnterpriseRowProps = {
  lng: Lng
  pick: Pick
  item: EnterpriseItem
  index: number
  /** h2 on the enterprises page, h3 inside the home page's section. */
  headingLevel: 2 | 3
}

export function EnterpriseRow({ lng, pick, item, index, headingLevel }: EnterpriseRowProps) {
  const title = pick(item, 'title')
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const buttonLabel = pick(item, 'btnName')
  // A linked icon is the link's only content: its alt says where the link leads, as its label does,
  // so every checker and a browser's list of links name it. An icon without a link is decoration.
  const iconAlt = resolveLink(item.iconLink, lng) ? title : ''
  return (
    <article className={index % 2 === 1 ? 'feature-row feature-row--reverse' : 'feature-row'}>
      <div className="feature-row__media">
        <Image src={item.img} fallback={FALLBACK.enterprise} alt={title} width={800} height={600} layout="split" />
      </div>
      <div className="feature-row__body">
        {item.icon.trim() ? (
          <SmartLink className="feature-row__icon" href={item.iconLink} lng={lng} label={title || undefined}>
            <Image src={item.icon} alt={iconAlt} width={56} height={56} layout="rowIcon" />
          </SmartLink>
        ) : null}
        {title ? <Heading className="feature-row__title">{title}</Heading> : null}
        <RichText html={pick(item, 'description')} lng={lng} />
        <ButtonLink lng={lng} label={buttonLabel} href={item.btnLink} fallback={ENTERPRISE_FALLBACK_LINK} about={title} />
      </div>
    </article>
  )
}
