/** The site footer: copyright with the current year, brand, and 'Made with ♥ by' the team. */
import { getT } from '../../shared/i18n'
import type { Shell } from '../shell'

export function Footer({ shell }: { shell: Shell }) {
  const t = getT(shell.lng)
  const year = new Date().getUTCFullYear()
  return (
    <footer className="site-footer">
      <p className="site-footer__copyright">
        © {year} <span className="site-footer__brand">{t('footer.brand')}</span>.{' '}
        {t('footer.rights')}
      </p>
      <p className="site-footer__credits">
        {t('footer.madeWith')}{' '}
        <span className="site-footer__heart" role="img" aria-label="love">
          ♥
        </span>{' '}
        {t('footer.by')} {t('footer.team')}
      </p>
    </footer>
  )
}
