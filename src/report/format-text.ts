/** The content report as text: completeness per page and language, then one line per gap. */
import type { ContentReport, Gap } from './report-shape'

function percent(own: number, shown: number): string {
  return shown === 0 ? '-' : `${Math.floor((own / shown) * 100)}%`
}

function gapText(gap: Gap): string {
  const mark = gap.accepted ? 'accepted' : gap.counted ? 'GAP' : 'note'
  const field = gap.field ? ` ${gap.field}:` : ':'
  return `  ${mark} [${gap.lng}] ${gap.kind} ${gap.source}${field} ${gap.detail}; fix: ${gap.fix}`
}

/** Lines for a terminal or a workflow summary (one gap a line, grouped by page). */
export function formatReportText(report: ContentReport): string {
  const lines = [`Content report of ${report.backend} (${report.generatedAt})`, '']
  const pages = [
    ...new Set([
      ...report.completeness.map((row) => row.page),
      ...report.gaps.map((gap) => gap.page),
    ]),
  ]
  for (const page of pages) {
    const rows = report.completeness.filter((row) => row.page === page)
    const figures = rows.map(
      (row) => `${row.lng} ${percent(row.own, row.shown)} (${row.own}/${row.shown})`
    )
    lines.push(`${page}${figures.length ? `  ${figures.join('  ')}` : ''}`)
    lines.push(...report.gaps.filter((gap) => gap.page === page).map(gapText))
  }
  lines.push('', `${report.open} open gap(s) of ${report.gaps.length} listed`)
  return lines.join('\n')
}
