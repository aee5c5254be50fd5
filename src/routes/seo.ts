/**
 * Indexing: `/sitemap.xml` lists every page (projects' included) in every language with its hreflang alternates, and
 * `/robots.txt` points to it. Both build absolute URLs from the request's origin, so a preview,
 * a staging host and production each advertise their own addresses.
 */
import { Hono } from 'hono'
import { contentFor } from '../freshness'
import { projectPaths } from '../content/projects'
import type { AppEnv } from '../env'
import { hreflangAlternates, LANGUAGES, localizePath } from '../shared/languages'
import { PAGE_PATHS } from '../shared/site-paths'

export const seo = new Hono<AppEnv>()

const CACHE_CONTROL = 'public, max-age=3600'

seo.get('/sitemap.xml', async (c) => {
  const origin = new URL(c.req.url).origin
  // Without the enterprises payload (a backend failure before it was ever cached) the sitemap
  // still lists the navbar's pages.
  const enterprises = await contentFor(c)
    .enterprisesPage()
    .catch(() => null)
  return c.body(sitemapXml(origin, enterprises ? projectPaths(enterprises) : []), 200, {
    'Content-Type': 'application/xml; charset=utf-8',
    'Cache-Control': CACHE_CONTROL,
  })
})

seo.get('/robots.txt', (c) => {
  const origin = new URL(c.req.url).origin
  return c.text(robotsTxt(origin), 200, { 'Cache-Control': CACHE_CONTROL })
})

/**
 * One <url> per page and language (the navbar's pages, then `projectPages`: every project's page),
 * each naming all its alternates (itself included), as the sitemap form of hreflang asks:
 * https://developers.google.com/search/docs/specialty/international/localized-versions#sitemap
 */
export function sitemapXml(origin: string, projectPages: readonly string[] = []): string {
  const urls = [...PAGE_PATHS, ...projectPages].flatMap((page) => {
    const alternates = hreflangAlternates(page)
      .map(
        ({ hreflang, path }) =>
          `    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(origin + path)}"/>`
      )
      .join('\n')
    return LANGUAGES.map(
      (lng) =>
        `  <url>\n    <loc>${escapeXml(origin + localizePath(page, lng))}</loc>\n${alternates}\n  </url>`
    )
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n')
}

/** Everything may be crawled except the beacon and form endpoints under /api/. */
export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n')
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
