/** About: banners, mission, mission cards and partners (spec section 2). */
import type { AboutPage as AboutPayload } from '../../content/schemas'
import { localizer } from '../../content/localize'
import type { Lng } from '../../shared/languages'

export function AboutPage({ lng, about }: { lng: Lng; about: AboutPayload }) {
  const pick = localizer(lng)
  return (
    <section className="banner">
      <h1>{pick(about.firstBanner, 'titleBanner') || pick(about, 'title')}</h1>
    </section>
  )
}
