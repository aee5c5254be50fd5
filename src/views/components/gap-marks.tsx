/**
 * Preview's marks: on a preview page, each gap the content report finds for that page and language
 * (src/report/) is marked where its field is shown, or where its section would be. A mark
 * is a small link to the gap's line on the report's page: it names the field in visible text,
 * needs no script, and is reached with the keyboard like any link. The context is provided only
 * in preview (src/views/renderer.tsx): without it every mark renders nothing, so a visitor's page
 * is the same to the byte.
 */
import { createContext, use, type ReactNode } from 'react'
import { gapAnchor, gapCountsOf, gapsOfPage, type ContentReport, type Gap } from '../../report'
import type { Lng } from '../../shared/languages'
import { placeOf, type GapPlace } from './gap-places'

/** What preview knows of the page being rendered: the report of its loads, its key and language. */
export type PreviewGaps = {
  report: ContentReport
  page: string
  lng: Lng
  /** The report's page, which each mark links into. */
  reportHref: string
}

export const PreviewGapsContext = createContext<PreviewGaps | null>(null)

/**
 * Gives the page's views the report of what the request loaded, once `report` is made; `children`
 * is given the page's gap counts per language (the preview bar's).
 */
export function PreviewGapsProvider({
  report,
  children,
  ...place
}: Omit<PreviewGaps, 'report'> & {
  report: Promise<ContentReport>
  children: (gapCounts: Record<Lng, number>) => ReactNode
}) {
  const made = use(report)
  return (
    <PreviewGapsContext value={{ report: made, ...place }}>
      {children(gapCountsOf(made, place.page))}
    </PreviewGapsContext>
  )
}

/** The marks' stylesheet, in the document's head: only preview pages carry it. */
export function GapMarkStyles() {
  return use(PreviewGapsContext) ? (
    <style dangerouslySetInnerHTML={{ __html: MARK_STYLES }} />
  ) : null
}

/** A mark's visible text: what the visitor gets, naming the field. */
export function markText(gap: Gap): string {
  const field = gap.field || gap.source
  switch (gap.kind) {
    case 'fallback': {
      const language = /\((\w+)\)$/.exec(gap.detail)?.[1] ?? 'Other'
      return `${language} text: ${field} is empty`
    }
    case 'empty':
      return `Empty: ${field}`
    case 'hidden-section':
      return `Section hidden: ${field} has no items`
    case 'dropped-address':
      return `Address dropped: ${field}`
    case 'sanitized':
      return `HTML removed from ${field}`
    case 'image-failed':
      return `Bundled image shown: ${field}`
    case 'no-page':
      return `No project page: ${field}`
    case 'payload-failed':
      return `Not loaded: ${gap.source}`
    default:
      return `${gap.kind}: ${field}`
  }
}

/** The marks of the gaps shown at `place` (null: those no section shows, at the end of the page). */
export function GapMarks({ place }: { place: GapPlace | null }) {
  const preview = use(PreviewGapsContext)
  if (!preview) return null
  const gaps = gapsOfPage(preview.report, preview.page, preview.lng).filter(
    (gap) => placeOf(gap) === place
  )
  if (gaps.length === 0) return null
  return (
    <div className="gap-marks" lang="en" data-place={place ?? 'page'}>
      <ul className="gap-marks__list">
        {gaps.map((gap) => (
          <li key={gapAnchor(gap)}>
            <a
              className="gap-mark"
              href={`${preview.reportHref}#${gapAnchor(gap)}`}
              title={`${gap.detail}. Fix: ${gap.fix}`}
            >
              {markText(gap)}
            </a>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** Preview's own styles: only preview pages carry them, so visitors' stylesheets stay as they are. */
const MARK_STYLES = `
.gap-marks{max-width:var(--container,72rem);margin:.5rem auto;padding:0 1rem;position:relative;z-index:5}
.gap-marks__list{display:flex;flex-wrap:wrap;gap:.375rem;margin:0;padding:0;list-style:none}
.gap-mark{display:inline-block;max-width:100%;overflow-wrap:anywhere;padding:.2rem .55rem;border:2px dashed #b45309;border-radius:.375rem;background:#fef3c7;color:#451a03;font:600 .8125rem/1.35 system-ui,sans-serif;text-decoration:none}
.gap-mark::before{content:"⚠ ";speak:never}
.gap-mark:hover{background:#fde68a}
.gap-mark:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
`
