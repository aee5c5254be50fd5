/**
 * The three error screens: 404 (spec section 2 texts), the generic view for a page whose data
 * could not be loaded (texts under contact.*), and the last-resort 'Unexpected Application Error!'.
 */
import { getT } from '../../shared/i18n'
import { localizePath, type Lng } from '../../shared/languages'
import { wholeWordsStyle } from '../../shared/longest-word'

type ErrorViewProps = {
  code: string
  title: string
  subtitle: string
  message: string
  button: string
  lng: Lng
}

function ErrorView({ code, title, subtitle, message, button, lng }: ErrorViewProps) {
  return (
    <section className="error-view" aria-labelledby="error-title">
      <p className="error-view__code" aria-hidden="true">
        {code}
      </p>
      <h1 id="error-title" className="error-view__title" style={wholeWordsStyle(title)}>
        {title}
      </h1>
      {/* 'Page Not Found' over 'Page not found' reads twice in ru and hy: keep the second for screen readers only. */}
      <p
        className={
          subtitle.toLowerCase() === title.toLowerCase()
            ? 'visually-hidden'
            : 'error-view__subtitle'
        }
      >
        {subtitle}
      </p>
      <p className="error-view__message">{message}</p>
      <a className="button button--primary" href={localizePath('/', lng)}>
        {button}
      </a>
    </section>
  )
}

export function NotFoundPage({ lng }: { lng: Lng }) {
  const t = getT(lng)
  return (
    <ErrorView
      lng={lng}
      code={t('ui.notFoundTitle')}
      title={t('ui.notFoundSubtitle')}
      subtitle={t('ui.pageNotFound')}
      message={t('ui.notFoundMessage')}
      button={t('ui.goHome')}
    />
  )
}

export function LoadFailedPage({ lng, status }: { lng: Lng; status: number }) {
  const t = getT(lng)
  return (
    <ErrorView
      lng={lng}
      code={String(status)}
      title={t('contact.errorTitle')}
      subtitle={t('contact.errorSubtitle')}
      message={t('contact.errorMessage')}
      button={t('contact.errorButton')}
    />
  )
}

/** A complete document with no backend data and no scripts: safe to render whatever broke. */
export function unexpectedErrorHtml(lng: Lng, status: number): string {
  const t = getT(lng)
  const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
  return `<!DOCTYPE html><html lang="${lng}"><head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/><meta name="robots" content="noindex"/><title>${escape(t('ui.unexpectedError'))}</title><style>body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f6f1ea;color:#1f2a37}main{text-align:center;padding:2rem}a{color:#a64b25}</style></head><body><main><h1>${escape(t('ui.unexpectedError'))}</h1><p>${status}</p><p><a href="${localizePath('/', lng)}">${escape(t('ui.goHome'))}</a></p></main></body></html>`
}
