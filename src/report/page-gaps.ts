/**
 * A report read for one page, as preview shows it: the gaps its visitors in one language meet
 * (the page's own, the shared navbar's, and those of every language), counted as the report
 * counts them, each with an address on the report's page.
 */
import { LANGUAGES, type Lng } from '../shared/languages'
import { gapLine } from './accepted-gaps'
import type { ContentReport, Gap } from './report-shape'

/** The page the shared navbar's gaps are listed under: every page shows the navbar. */
const NAVBAR_PAGE = 'navbar-data'

/** The counted gaps visitors of `page` (a page key: '/about', '/enterprises/1-arabkir') meet in `lng`. */
export function gapsOfPage(report: ContentReport, page: string, lng: Lng): Gap[] {
  return report.gaps.filter(
    (gap) =>
      gap.counted &&
      !gap.accepted &&
      (gap.page === page || gap.page === NAVBAR_PAGE) &&
      (gap.lng === lng || gap.lng === '*')
  )
}

/** How many gaps visitors of `page` meet, per language. */
export function gapCountsOf(report: ContentReport, page: string): Record<Lng, number> {
  return Object.fromEntries(
    LANGUAGES.map((lng) => [lng, gapsOfPage(report, page, lng).length])
  ) as Record<Lng, number>
}

/** The id of a gap's line on the report's page: the same gap has the same id in every report. */
export function gapAnchor(gap: Pick<Gap, 'page' | 'lng' | 'kind' | 'source' | 'field'>): string {
  // FNV-1a, 32 bits: short, stable, and enough to tell one page's gaps apart.
  let hash = 0x811c9dc5
  for (const char of gapLine(gap)) {
    hash ^= char.codePointAt(0)!
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return `gap-${hash.toString(36)}`
}
