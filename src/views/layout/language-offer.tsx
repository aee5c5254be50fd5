/**
 * The language offer: a one-line suggestion of the same page in another language, rendered hidden
 * for every visitor, once for each language the page is not in, each in its own language. The
 * browser shows the one that matches the visitor's preferred language (client/language-offer.ts),
 * so the page's HTML is the same for everyone and the server never looks at Accept-Language
 * (docs/decisions/0044-a-language-offered-never-pushed.md). Without JavaScript it stays hidden.
 */
import { getT } from '../../shared/i18n'
import { LANGUAGES, localizePath } from '../../shared/languages'
import type { Shell } from '../shell'

export function LanguageOffers({ shell }: { shell: Shell }) {
  const { lng, pageKey, keptQuery = '' } = shell
  // Only a page the site has in every language: never a 404 or an error view.
  if (!shell.indexable) return null
  return LANGUAGES.filter((offered) => offered !== lng).map((offered) => {
    const t = getT(offered)
    return (
      <aside
        key={offered}
        className="language-offer"
        lang={offered}
        aria-label={t('ui.languageOfferLabel')}
        hidden
      >
        <a href={localizePath(pageKey, offered) + keptQuery} hrefLang={offered}>
          {t('ui.languageOffer')}
        </a>
        <button type="button" aria-label={t('ui.close')}>
          ×
        </button>
      </aside>
    )
  })
}
