/**
 * The page routes, mounted under '/', '/en' and '/ru'. Each handler loads everything its page and
 * the layout need in parallel before the first byte, so the status code is always right.
 */
import { Hono, type Context } from 'hono'
import { contentFor, type ContentClient } from '../content'
import type { AppEnv } from '../env'
import { placeholdersFor } from '../images/page-placeholders'
import { localizePath } from '../shared/languages'
import { ContactFormArea, type ContactFormState } from '../views/components/contact-form'
import { NAV_PAGES } from '../views/layout/navbar'
import { AboutPage } from '../views/pages/about-page'
import { ContactPage } from '../views/pages/contact-page'
import { EnterprisesPage } from '../views/pages/enterprises-page'
import { HomePage } from '../views/pages/home-page'
import type { Shell } from '../views/shell'

export const pages = new Hono<AppEnv>()

/** The contact page's `?sent=1`: shown after a plain-form message was sent (src/routes/contact.tsx). */
export const SENT_PARAM = 'sent'
/**
 * Every query parameter a page reads. The page cache keys pages by these alone, so campaign and
 * click ids (`utm_*`, `fbclid`) neither split the cache nor make the site render at will.
 */
export const PAGE_QUERY_PARAMS: readonly string[] = [SENT_PARAM]
/** The paths, without language prefix, that this router renders pages at: the navbar's pages. */
export const PAGE_PATHS: readonly string[] = NAV_PAGES.map(({ key }) => key)

pages.get('/', async (c) => {
  const content = contentFor(c)
  const [shell, home] = await Promise.all([loadShell(c, content), content.homePage()])
  const placeholders = await placeholdersFor(c, [home])
  return c.render(<HomePage lng={c.var.lng} home={home} />, { shell, placeholders })
})

pages.get('/about', async (c) => {
  const content = contentFor(c)
  const [shell, about] = await Promise.all([loadShell(c, content), content.aboutPage()])
  const placeholders = await placeholdersFor(c, [about])
  return c.render(<AboutPage lng={c.var.lng} about={about} />, { shell, placeholders })
})

pages.get('/enterprises', async (c) => {
  const content = contentFor(c)
  const [shell, page] = await Promise.all([loadShell(c, content), content.enterprisesPage()])
  const placeholders = await placeholdersFor(c, [page])
  return c.render(<EnterprisesPage lng={c.var.lng} page={page} />, { shell, placeholders })
})

pages.get('/contact-us', (c) => renderContactPage(c, c.req.query(SENT_PARAM) === '1' ? { outcome: { kind: 'sent' } } : {}))

// The spec links to these paths without giving them a screen.
pages.get('/services', (c) => c.redirect(`${localizePath('/', c.var.lng)}#services`, 302))
pages.get('/enterprise-detail', (c) => c.redirect(localizePath('/enterprises', c.var.lng), 302))

/** The contact page with its form as the last plain-form post left it (src/routes/contact.tsx). */
export async function renderContactPage(c: Context<AppEnv>, form: ContactFormState) {
  const shell = await loadShell(c, contentFor(c))
  const contact = shell.contact!
  const placeholders = await placeholdersFor(c, [contact])
  const area = <ContactFormArea lng={c.var.lng} contact={contact} state={form} />
  return c.render(<ContactPage lng={c.var.lng} contact={contact} form={area} />, { shell, placeholders })
}

/** Navbar, contact and meta data for the layout (spec section 2: all three, or the error view). */
async function loadShell(c: Context<AppEnv>, content: ContentClient): Promise<Shell> {
  const [navbar, contact, meta] = await Promise.all([
    content.navbar(),
    content.contactData(),
    content.pageMeta(c.var.pageKey),
  ])
  return { ...baseShell(c), navbar, contact, meta, indexable: true }
}

/** The shell of a page rendered without backend data (404 and error views). */
export function baseShell(c: Context<AppEnv>): Shell {
  return {
    lng: c.var.lng ?? 'hy',
    pageKey: c.var.pageKey ?? '/',
    origin: new URL(c.req.url).origin,
    meta: null,
    navbar: null,
    contact: null,
    indexable: false,
  }
}
