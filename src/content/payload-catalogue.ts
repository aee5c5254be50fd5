/**
 * What the site reads from the backend (spec section 7), and how each payload is named: its
 * endpoint, its schema, its KV key and its Cache-Tag. Pages rendered from a payload carry its tag in
 * Cache-Tag, so that a changed payload purges exactly those pages.
 */
import type * as Schemas from './schemas'
import { CONTACT_PAGE_PATH, PROJECTS_PATH } from '../shared/site-paths'

/** The backend endpoints whose payloads pages read, each cached under its own key(s). */
export const PAYLOAD_ENDPOINTS = [
  'get-home-page',
  'get-about-page',
  'get-enterprises-page',
  'contact-us',
  'navbar-data',
  'page-meta-data',
] as const
export type PayloadEndpoint = (typeof PAYLOAD_ENDPOINTS)[number]

type PayloadSchemas = {
  'get-home-page': typeof Schemas.HomePayloadSchema
  'get-about-page': typeof Schemas.AboutPayloadSchema
  'get-enterprises-page': typeof Schemas.EnterprisesPayloadSchema
  'contact-us': typeof Schemas.ContactDataSchema
  'navbar-data': typeof Schemas.NavbarPayloadSchema
  'page-meta-data': typeof Schemas.PageMetaSchema
}

/**
 * The schemas (./schemas.ts, and zod with them), loaded when the client first validates, not when
 * a new isolate starts: evaluating zod is most of what the site's startup cost beyond Hono and
 * React (decision 0033; `npm run bench -- startup`).
 */
export const loadSchemas = () => import('./schemas')

/** The schema of `endpoint`'s payload. */
export async function payloadSchema<E extends PayloadEndpoint>(
  endpoint: E
): Promise<PayloadSchemas[E]> {
  const schemas = await loadSchemas()
  const byEndpoint: PayloadSchemas = {
    'get-home-page': schemas.HomePayloadSchema,
    'get-about-page': schemas.AboutPayloadSchema,
    'get-enterprises-page': schemas.EnterprisesPayloadSchema,
    'contact-us': schemas.ContactDataSchema,
    'navbar-data': schemas.NavbarPayloadSchema,
    'page-meta-data': schemas.PageMetaSchema,
  }
  return byEndpoint[endpoint]
}

/**
 * Bump when the cached shape changes so that old entries cannot be read back at all. v2: addresses
 * parsed and HTML sanitized at load; a v1 entry holds raw CMS values. A change of the
 * schemas' output alone bumps PAYLOAD_SCHEMA_VERSION instead: entries are then validated again.
 */
const CACHE_VERSION = 'v2'

/** The KV key of the payload at `path` of the backend at `origin` for `product`. */
export function payloadKey(origin: string, product: string, path: string): string {
  return `payload:${CACHE_VERSION}:${origin}:${product}:${path}`
}

/** The path of a page's meta data (spec section 7: query path and page, a page key such as '/about'). */
export function pageMetaPath(metaPath: string, page: string): string {
  return `page-meta-data?${new URLSearchParams({ path: metaPath, page })}`
}

/**
 * The page (its key, without language prefix) each page payload is the content of (spec section 7).
 * Other pages may show some of it too (every footer shows the contacts), but an editor's change to it
 * is a change to this page.
 */
const PAGE_OF_ENDPOINT: Partial<Record<PayloadEndpoint, string>> = {
  'get-home-page': '/',
  'get-about-page': '/about',
  'get-enterprises-page': PROJECTS_PATH,
  'contact-us': CONTACT_PAGE_PATH,
}

/**
 * The page whose own content the payload tagged `tag` is (see payloadTag): a page payload's page, or
 * the page a page's meta data names; undefined for one no page owns (`payload:navbar-data`).
 */
export function pageOfTag(tag: string): string | undefined {
  const [endpoint = '', page] = tag.replace(/^payload:/, '').split(/:(.*)/)
  if (endpoint === 'page-meta-data') return page || undefined
  return PAGE_OF_ENDPOINT[endpoint as PayloadEndpoint]
}

/**
 * The Cache-Tag of the payload at `path`: `payload:navbar-data`, `payload:page-meta-data:/about`.
 * Tags hold no commas or spaces, the separators of the Cache-Tag header.
 */
export function payloadTag(path: string): string {
  const [endpoint = '', query = ''] = path.split('?')
  const page = new URLSearchParams(query).get('page')
  return `payload:${endpoint}${page === null ? '' : `:${page}`}`.replace(/[\s,]/g, '_')
}
