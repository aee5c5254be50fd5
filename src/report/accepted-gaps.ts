/**
 * Gaps an operator accepts without a code change: an accept file, one pattern a line, matched
 * against a gap's `page lng kind source field` with `*` for any run of characters; `#` starts a
 * comment. Example: `/contact-us * empty contact-us tiktok` (docs/operations.md, "Content health").
 */
import type { ContentReport, Gap } from './report-shape'

/** The gap as the patterns see it. */
export function gapLine(gap: Pick<Gap, 'page' | 'lng' | 'kind' | 'source' | 'field'>): string {
  return `${gap.page} ${gap.lng} ${gap.kind} ${gap.source} ${gap.field}`
}

/** The patterns of an accept file's text. */
export function parseAcceptedGaps(text: string): RegExp[] {
  return text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().split(/\s+/).join(' '))
    .filter(Boolean)
    .map((line) => {
      const escaped = line.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')
      return new RegExp(`^${escaped}$`)
    })
}

/** `report` with the gaps the patterns match marked accepted, and `open` counted again. */
export function acceptGaps(report: ContentReport, patterns: readonly RegExp[]): ContentReport {
  const gaps = report.gaps.map((gap) => ({
    ...gap,
    accepted: patterns.some((pattern) => pattern.test(gapLine(gap))),
  }))
  return { ...report, gaps, open: gaps.filter((gap) => gap.counted && !gap.accepted).length }
}
