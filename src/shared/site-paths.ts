/**
 * The site's paths, without language prefix: its pages, the old addresses that redirect to them,
 * the contact page's query, and the routes that are not pages. The worker, the browser bundle, the
 * scripts and the tests read them here. Adding a page is one entry in NAV_PAGES plus its view and
 * its route (src/routes/pages.tsx).
 *
 * Plain data, importing nothing: Node runs this file as it is (type stripping), so a script
 * imports it without a build step.
 */

/** The enterprises list; every project's page is under it: `/enterprises/<slug>`. */
export const PROJECTS_PATH = '/enterprises'
/** The contact page, with the plain form. */
export const CONTACT_PAGE_PATH = '/contact-us'

/** The navbar's pages, in its order: each path and its label (`ui.<label>`, the navbar payload's field). */
export const NAV_PAGES = [
  { key: '/', label: 'home' },
  { key: '/about', label: 'about' },
  { key: PROJECTS_PATH, label: 'enterprises' },
  { key: CONTACT_PAGE_PATH, label: 'contactUs' },
] as const

/** Every page's path, without language prefix, besides the projects' own pages. */
export const PAGE_PATHS: readonly string[] = NAV_PAGES.map(({ key }) => key)

/** Old addresses that redirect to a page: the home page's services section, and the enterprises list. */
export const SERVICES_PATH = '/services'
export const OLD_PROJECT_PATH = '/enterprise-detail'

/**
 * First path segments that are the site's own, never a language code: a request whose first
 * segment is neither these nor a language goes home when it looks like a language tag.
 */
export const PAGE_SEGMENTS: ReadonlySet<string> = new Set(
  [...PAGE_PATHS, SERVICES_PATH, OLD_PROJECT_PATH]
    .map((path) => path.split('/')[1] ?? '')
    .filter(Boolean)
)

/** The contact page's `?sent=1`: shown after a plain-form message was sent. */
export const SENT_PARAM = 'sent'

/** POST: the contact form island's messages (JSON). */
export const CONTACT_API_PATH = '/api/contact'
/** POST, signed: dead letters back on the contact queue. */
export const CONTACT_RESEND_PATH = '/api/contact/resend'
/** POST, signed: a CMS names the payloads that changed. */
export const PUBLISH_PATH = '/api/publish'
/** POST: the browser's web vitals beacons. */
export const VITALS_PATH = '/api/vitals'
/** POST: the browser's error beacons. */
export const CLIENT_ERRORS_PATH = '/api/client-errors'
/** GET: a content image at a ladder width. */
export const IMAGE_ROUTE = '/_image'
