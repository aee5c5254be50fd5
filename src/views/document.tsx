/**
 * The HTML document around every page: <html lang>, the head's meta tags (spec section 2,
 * "Document head", and section 9), hreflang alternates, the navbar, main and the footer.
 * `<meta name="deployment-version">` names the deployed version that rendered the page (the version metadata
 * binding's id), so that a copy served from a cache reports the version that made it
 * (client/telemetry, decision 0030); without the binding it is left out. A preview page
 * (`shell.preview`) starts with the preview bar and inlines its stylesheet.
 */
import type { ReactNode } from 'react'
import { isExternalAddress, parseAddress } from '../content/addresses'
import { pickLocalized } from '../content/localize'
import { GapMarks, GapMarkStyles } from './components/gap-marks'
import { getT } from '../shared/i18n'
import { hreflangAlternates, localizePath } from '../shared/languages'
import { DEPLOYMENT_VERSION_META, VERSION_ID } from '../shared/telemetry'
import { clientManifest } from '../generated/client-manifest'
import { ClientAssets } from './assets'
import { BreadcrumbsJsonLd } from './components/breadcrumbs-json-ld'
import { OrganizationJsonLd } from './components/organization-json-ld'
import { Island } from './island'
import { Footer } from './layout/footer'
import { LanguageOffers } from './layout/language-offer'
import { Navbar } from './layout/navbar'
import { PreviewBar } from './layout/preview-bar'
import type { Shell } from './shell'

export const ROBOTS = 'index, follow, max-image-preview:large, max-snippet:-1, max-video-preview:-1'
const OG_LOCALE = { hy: 'hy_AM', en: 'en_US', ru: 'ru_RU' } as const

/**
 * The absolute address of the social card image: `image` is a parsed address (an absolute http(s)
 * URL or a site-relative path, src/content/addresses.ts) or ''; anything else gives no image.
 */
function socialImage(image: string, origin: string): string {
  const address = parseAddress(image, 'image')
  if (!address) return ''
  return isExternalAddress(address) ? address : `${origin}${address}`
}

type DocumentProps = {
  shell: Shell
  /** The deployed version's id (CF_VERSION_METADATA), if any. */
  version?: string
  children: ReactNode
}

export function Document({ shell, version, children }: DocumentProps) {
  const { lng, pageKey, origin, meta, head } = shell
  const t = getT(lng)
  const siteName = t('meta.siteName')
  const title = head
    ? `${head.title} · ${siteName}`
    : (meta && pickLocalized(meta, 'title', lng)) || siteName
  const description =
    head?.description || (meta && pickLocalized(meta, 'description', lng)) || t('meta.description')
  const keywords = meta ? pickLocalized(meta, 'keywords', lng) : ''
  const canonical = `${origin}${localizePath(pageKey, lng)}`
  const image = head?.image || socialImage(meta?.image ?? '', origin)

  return (
    <html lang={lng}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={description} />
        {keywords && <meta name="keywords" content={keywords} />}
        <meta name="robots" content={shell.indexable ? ROBOTS : 'noindex, follow'} />
        <meta name="theme-color" content="#ffffff" />
        {version && VERSION_ID.test(version) && (
          <meta name={DEPLOYMENT_VERSION_META} content={version} />
        )}
        <link rel="canonical" href={canonical} />
        {shell.indexable &&
          hreflangAlternates(pageKey).map(({ hreflang, path }) => (
            <link key={hreflang} rel="alternate" hrefLang={hreflang} href={`${origin}${path}`} />
          ))}
        <link rel="icon" type="image/png" href="/logo-white.png" />
        <link rel="apple-touch-icon" href="/logo-white.png" />
        <meta property="og:type" content="website" />
        <meta property="og:site_name" content={siteName} />
        <meta property="og:title" content={title} />
        <meta property="og:description" content={description} />
        <meta property="og:url" content={canonical} />
        <meta property="og:locale" content={OG_LOCALE[lng]} />
        {image && <meta property="og:image" content={image} />}
        <meta name="twitter:card" content="summary_large_image" />
        <meta name="twitter:title" content={title} />
        <meta name="twitter:description" content={description} />
        {image && <meta name="twitter:image" content={image} />}
        <OrganizationJsonLd lng={lng} origin={origin} contact={shell.contact} />
        {head && <BreadcrumbsJsonLd origin={origin} breadcrumbs={head.breadcrumbs} />}
        <ClientAssets pageKey={pageKey} lng={lng} />
        <GapMarkStyles />
        {shell.preview && (
          <style dangerouslySetInnerHTML={{ __html: clientManifest.previewStylesheet }} />
        )}
      </head>
      <body>
        <a className="skip-link" href="#main">
          {t('ui.skipToContent')}
        </a>
        {shell.preview && <PreviewBar shell={shell} state={shell.preview} />}
        <LanguageOffers shell={shell} />
        <Navbar shell={shell} />
        <GapMarks place="navbar" />
        <main id="main">
          {children}
          <GapMarks place={null} />
        </main>
        <Footer shell={shell} />
        <Island name="back-to-top" props={{ label: t('ui.backToTop') }} />
      </body>
    </html>
  )
}
