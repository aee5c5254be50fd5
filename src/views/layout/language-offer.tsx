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
        data-language-offer={offered}
        hidden
      >
        <a
          className="language-offer__link"
          href={localizePath(pageKey, offered) + keptQuery}
          hrefLang={offered}
        >
          {t('ui.languageOffer')}
        </a>
        <button type="button" className="language-offer__close" aria-label={t('ui.close')}>
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </aside>
    )
  })
}
