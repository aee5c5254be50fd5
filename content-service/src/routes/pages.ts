/**
 * GET calls of spec section 7: one stored payload each, plus page-meta-data by page key. A call
 * that carries the editors' token gets the page's draft where it has one (./drafts.ts).
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { carriesEditorToken } from '../editor-token'
import { getDraft, getPage, getPageMeta, type PageSlug } from '../queries'
import { errorResponse, payloadResponse } from '../responses'

export const pages = new Hono<AppEnv>()

/** Call name (the last path segment) -> row of `pages`. */
export const PAGE_CALLS: Record<string, PageSlug> = {
  'get-home-page': 'home',
  'get-about-page': 'about',
  'get-enterprises-page': 'enterprises',
  'contact-us': 'contact-us',
  'navbar-data': 'navbar',
}

for (const [call, slug] of Object.entries(PAGE_CALLS)) {
  pages.get(`/${call}`, async (c) => {
    const draft = carriesEditorToken(c) ? await getDraft(c.env.CONTENT_DB, call) : null
    const payload = draft ?? (await getPage(c.env.CONTENT_DB, slug))
    if (payload === null)
      return errorResponse(c, 404, `No content for "${slug}" yet: run npm run content:seed`)
    return payloadResponse(c, payload)
  })
}

// `path` (the site's fixed product-section value) is accepted and not used: the reference
// service holds one site.
pages.get('/page-meta-data', async (c) => {
  const raw = c.req.query('page')
  if (raw === undefined || raw.trim() === '')
    return errorResponse(c, 400, 'Query parameter "page" is required, e.g. page=/about')
  const page = normalizePageKey(raw)
  const payload = await getPageMeta(c.env.CONTENT_DB, page)
  if (payload === null) return errorResponse(c, 404, `No meta data for page "${page}"`)
  return payloadResponse(c, payload)
})

/** 'about', '/about/' and '/about' name the same page; '/' stays '/'. */
export function normalizePageKey(raw: string): string {
  const trimmed = raw.trim().replace(/\/+$/, '')
  return trimmed.startsWith('/') ? trimmed || '/' : `/${trimmed}`
}
