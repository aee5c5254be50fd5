/** Enterprises: banner, then the enterprise items (spec section 2). */
import type { EnterprisesPage as EnterprisesPayload } from '../../content/schemas'
import { localizer } from '../../content/localize'
import type { Lng } from '../../shared/languages'

export function EnterprisesPage({ lng, page }: { lng: Lng; page: EnterprisesPayload }) {
  const pick = localizer(lng)
  return (
    <section className="banner">
      <h1>{pick(page.banner, 'titleBanner')}</h1>
    </section>
  )
}
