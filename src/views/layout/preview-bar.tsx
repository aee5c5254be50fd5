/**
 * The bar on top of every preview page: says, in the page's language, that visitors do not see this
 * yet; links to this page's preview in the other two languages, to the content report and to exit
 * (back to the public page). Plain links in a labelled region, in normal flow: it works without
 * JavaScript, is reached with the keyboard, and moves nothing of the page below it.
 */
import { getT } from '../../shared/i18n'
import { LANGUAGE_NAMES, LANGUAGES, localizePath, type Lng } from '../../shared/languages'
import { PREVIEW_EXIT_PATH, PREVIEW_REPORT_PATH, previewPathOf } from '../../shared/site-paths'
import type { PreviewBarState, Shell } from '../shell'

export function PreviewBar({ shell, state }: { shell: Shell; state: PreviewBarState }) {
  const { lng, pageKey, keptQuery = '' } = shell
  const t = getT(lng)
  const exit = `${PREVIEW_EXIT_PATH}?${new URLSearchParams({ path: localizePath(pageKey, lng) })}`
  const gaps = (code: Lng) =>
    state.gapCounts && <span className="preview-bar__gaps">{state.gapCounts[code]}</span>
  return (
    <aside className="preview-bar" aria-label={t('preview.label')}>
      <p className="preview-bar__notice">
        {t('preview.notice')}
        {gaps(lng)}
      </p>
      <ul className="preview-bar__links">
        {LANGUAGES.filter((code) => code !== lng).map((code) => (
          <li key={code}>
            <a
              href={previewPathOf(localizePath(pageKey, code)) + keptQuery}
              hrefLang={code}
              lang={code}
            >
              {LANGUAGE_NAMES[code]}
            </a>
            {gaps(code)}
          </li>
        ))}
        <li>
          <a href={previewPathOf(PREVIEW_REPORT_PATH)}>{t('preview.report')}</a>
        </li>
        <li>
          <a href={exit}>{t('preview.exit')}</a>
        </li>
      </ul>
    </aside>
  )
}
