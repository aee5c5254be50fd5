/**
 * The site header: logo, page links in the visitor's language, the language entries, and the
 * collapse button for small screens (the navbar-menu island, which also marks the navbar sticky).
 */
import { pickLocalized } from '../../content/localize'
import { getT } from '../../shared/i18n'
import { LANGUAGE_NAMES, LANGUAGES, localizePath } from '../../shared/languages'
import { NAV_PAGES } from '../../shared/site-paths'
import { Island } from '../island'
import type { Shell } from '../shell'

/** The page links' id: the mobile menu's button controls them. */
const NAV_LINKS_ID = 'navbar-links'

export function Navbar({ shell }: { shell: Shell }) {
  const { lng, pageKey, navbar } = shell
  const t = getT(lng)
  return (
    <header className="site-header">
      <nav className="navbar" aria-label={t('ui.mainNavigation')}>
        <a className="navbar__brand" href={localizePath('/', lng)}>
          <img src="/logo.png" width={150} height={95} alt={t('meta.siteName')} />
        </a>
        <ul className="navbar__links" id={NAV_LINKS_ID}>
          {NAV_PAGES.map(({ key, label }) => (
            <li key={key}>
              <a href={localizePath(key, lng)} aria-current={key === pageKey ? 'page' : undefined}>
                {(navbar && pickLocalized(navbar, label, lng)) || t(`ui.${label}`)}
              </a>
            </li>
          ))}
        </ul>
        <Island
          name="language-dropdown"
          props={{
            current: lng,
            label: t('ui.language'),
            entries: LANGUAGES.map((code) => ({
              lng: code,
              name: LANGUAGE_NAMES[code],
              href: localizePath(pageKey, code) + (shell.keptQuery ?? ''),
            })),
          }}
        />
        <Island name="navbar-menu" props={{ label: t('ui.menu'), controls: NAV_LINKS_ID }} />
      </nav>
    </header>
  )
}
