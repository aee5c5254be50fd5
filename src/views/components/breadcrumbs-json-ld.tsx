/**
 * Where a page sits in the site, as schema.org structured data: a BreadcrumbList from the home page
 * down to the page itself (a project's page: home, enterprises, the project), which search results
 * show in place of the bare address.
 * https://developers.google.com/search/docs/appearance/structured-data/breadcrumb
 */
import { serializeProps } from '../island'
import type { PageHead } from '../shell'

type BreadcrumbsInput = { origin: string; breadcrumbs: PageHead['breadcrumbs'] }

export function BreadcrumbsJsonLd(props: BreadcrumbsInput) {
  return (
    <script
      type="application/ld+json"
      dangerouslySetInnerHTML={{ __html: serializeProps(breadcrumbListOf(props)) }}
    />
  )
}

export function breadcrumbListOf({
  origin,
  breadcrumbs,
}: BreadcrumbsInput): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: breadcrumbs.map(({ name, path }, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name,
      item: `${origin}${path}`,
    })),
  }
}
