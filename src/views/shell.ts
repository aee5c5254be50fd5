/** What every page's layout needs besides the page itself: language, address and shared payloads. */
import type { ContactData, NavbarPayload, PageMeta } from '../content/schemas'
import type { Lng } from '../shared/languages'

export type Shell = {
  lng: Lng
  /** The path without its language prefix: '/', '/about', ... */
  pageKey: string
  /** The site's origin as the visitor sees it, for canonical and alternate links. */
  origin: string
  /** Page meta from the backend; null on error pages, which use the dictionary. */
  meta: PageMeta | null
  /** Navbar labels from the backend; null falls back to the dictionary. */
  navbar: NavbarPayload | null
  /** Contact data, for the footer's social links and the organisation's structured data. */
  contact: ContactData | null
  /** Whether search engines may index this response (not for 404s and error views). */
  indexable: boolean
  /** The query the language links keep (`?project=1` on a contact page that asks about a project). */
  keptQuery?: string
  /** A page's own head (a project's page), in place of the page meta data's. */
  head?: PageHead
  /** Set on preview pages only (src/preview/): the document shows the preview bar. */
  preview?: PreviewBarState
}

/** What a page that is about one thing says of itself in the head (src/views/document.tsx). */
export type PageHead = {
  title: string
  /** Plain text. */
  description: string
  /** The social card image's absolute address, or '' for the page meta data's. */
  image: string
  /** Where the page sits, from the home page down to itself: schema.org BreadcrumbList. */
  breadcrumbs: { name: string; path: string }[]
}

/** What the preview bar (./layout/preview-bar.tsx) shows besides the page itself. */
export type PreviewBarState = {
  /**
   * This page's gaps per language, as the content report counts them (src/report/): shown
   * beside each language once known; nothing is shown while undefined.
   */
  gapCounts?: Record<Lng, number>
}
