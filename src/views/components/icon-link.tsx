import type { EnterpriseItem } from '../../content/schemas'
import type { Lng } from '../../shared/languages'
import { Image } from './image'
import { resolveLink, SmartLink } from './smart-link'

type IconLinkProps = {
  className: string
  item: Pick<EnterpriseItem, 'icon' | 'iconLink'>
  lng: Lng
  title: string
}

/**
 * An enterprise's icon, linked to its `iconLink` when it has one. A linked icon is the link's only
 * content: its alt says where the link leads, as its label does, so every checker (axe,
 * HTML_CodeSniffer's H30) and a browser's list of links name it. An icon without a link is
 * decoration (empty alt). Nothing without an icon.
 */
export function IconLink({ className, item, lng, title }: IconLinkProps) {
  if (!item.icon.trim()) return null
  const alt = resolveLink(item.iconLink, lng) ? title : ''
  return (
    <SmartLink className={className} href={item.iconLink} lng={lng} label={title || undefined}>
      <Image src={item.icon} alt={alt} width={56} height={56} layout="rowIcon" />
    </SmartLink>
  )
}
