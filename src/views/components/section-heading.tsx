import { wholeWordsStyle } from '../../shared/longest-word'

/** A section's heading: an h2 with an optional subtitle, centred above the section's content. */
type SectionHeadingProps = {
  id: string
  title: string
  subtitle?: string
  align?: 'center' | 'start'
}

export function SectionHeading({ id, title, subtitle, align = 'center' }: SectionHeadingProps) {
  return (
    <div className={`section-heading section-heading--${align}`}>
      <h2 id={id} className="section-heading__title" style={wholeWordsStyle(title)}>
        {title}
      </h2>
      {subtitle ? <p className="section-heading__subtitle">{subtitle}</p> : null}
    </div>
  )
}
