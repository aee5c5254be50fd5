/** Home: hero banner, about block, services, enterprises, founders (spec section 2). */
import type { HomePage as HomePayload } from '../../content/schemas'
import { localizer } from '../../content/localize'
import type { Lng } from '../../shared/languages'

export function HomePage({ lng, home }: { lng: Lng; home: HomePayload }) {
  const pick = localizer(lng)
  const hero = pick(home, 'banner')[0] ?? home.banner[0]
  return (
    <>
      <section className="hero">
        <h1>{hero ? pick(hero, 'title') : ''}</h1>
      </section>
      <section id="services">
        <h2>{pick(home, 'servicesTitle')}</h2>
      </section>
    </>
  )
}
