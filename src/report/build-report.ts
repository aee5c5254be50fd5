/**
 * The content report of a set of loaded payloads: for each page and language what its visitors
 * miss, and how complete it is. The pages are the catalogue's (../payload-catalogue.ts), project
 * pages those ../projects.ts gives a page, the shared navbar on a page of its own.
 */
import { LANGUAGES } from '../shared/languages'
import { describeProblems, projectPath, projectsOf } from '../content/projects'
import type { EnterprisesPayload } from '../content/schemas'
import { gapLine } from './accepted-gaps'
import { findDictionaryGaps } from './dictionary-gaps'
import { fixOf } from './fix-of'
import type { PayloadLoads } from './payload-loads'
import { pageOf, sourceOf } from './payload-names'
import { findPayloadGaps, type Finding, type Tally } from './payload-gaps'
import {
  COUNTED_KINDS,
  REPORT_VERSION,
  type ContentReport,
  type Gap,
  type PageCompleteness,
} from './report-shape'

type Fields = Record<string, unknown>

/** The report of `loads`; `extra` are gaps found elsewhere (the CLI's image checks). */
export function buildContentReport(
  loads: PayloadLoads,
  options: { backend: string; extra?: Omit<Gap, 'fix' | 'counted' | 'accepted'>[] }
): ContentReport {
  const gaps: Omit<Gap, 'fix' | 'counted' | 'accepted'>[] = []
  const tallies = new Map<string, Tally>()
  const walk = (page: string, source: string, raw: unknown, parsed: Fields, path = '') => {
    const byLanguage = LANGUAGES.map((lng) => {
      const key = `${page} ${lng}`
      const tally = tallies.get(key) ?? { shown: 0 }
      tallies.set(key, tally)
      return findPayloadGaps(raw, parsed, lng, { source, tally }, path)
    })
    const place = (finding: Finding) => ({ page, source, ...finding })
    gaps.push(...sharedOnce(byLanguage).map(place))
  }
  for (const [tag, load] of loads) {
    const page = pageOf(tag)
    const source = sourceOf(tag)
    if ('error' in load) {
      gaps.push({ page, lng: '*', kind: 'payload-failed', source, field: '', detail: load.error })
      continue
    }
    walk(page, source, load.raw, load.payload as Fields)
    if (source === 'get-enterprises-page') {
      const payload = load.payload as EnterprisesPayload
      const projects = projectsOf(payload)
      const raws = Array.isArray(load.raw.enterprises) ? load.raw.enterprises : []
      const records = raws.filter(
        (item) => typeof item === 'object' && item !== null && !Array.isArray(item)
      )
      for (const project of projects.list) {
        const index = payload.enterprises.indexOf(project.item)
        walk(projectPath(project), source, records[index], project.item, `enterprises[${index}]`)
      }
      for (const problem of projects.problems) {
        if (problem.problem === 'no-image') continue
        gaps.push({
          page,
          lng: '*',
          kind: 'no-page',
          source,
          field: `enterprises[${problem.index}].${problem.problem === 'no-title' ? 'title' : 'id'}`,
          detail: describeProblems(payload, [problem])[0] ?? problem.problem,
        })
      }
    }
  }
  gaps.push(...findDictionaryGaps().map((finding) => ({ page: 'dictionaries', ...finding })))
  gaps.push(...(options.extra ?? []))
  const unique = new Map(gaps.map((gap) => [gapLine(gap), gap]))
  const listed = [...unique.values()].map((gap) => ({
    ...gap,
    fix: fixOf(gap),
    counted: COUNTED_KINDS.has(gap.kind),
    accepted: false,
  }))
  const completeness: PageCompleteness[] = [...tallies].map(([key, tally]) => {
    const [page = '', lng] = key.split(' ')
    const missed = listed.filter(
      (gap) => gap.counted && gap.page === page && (gap.lng === lng || gap.lng === '*')
    ).length
    return {
      page,
      lng: lng as PageCompleteness['lng'],
      own: Math.max(0, tally.shown - missed),
      shown: tally.shown,
    }
  })
  return {
    version: REPORT_VERSION,
    backend: options.backend,
    generatedAt: new Date().toISOString(),
    completeness,
    gaps: listed,
    open: listed.filter((gap) => gap.counted).length,
  }
}

/**
 * The findings of one record in each language, a finding every language shares (the same field,
 * kind and detail: a sanitizer's removal from the English text all three show) given once, as '*'.
 */
function sharedOnce(byLanguage: Finding[][]): Finding[] {
  const keyOf = (finding: Finding) => `${finding.kind} ${finding.field} ${finding.detail}`
  const counts = new Map<string, number>()
  for (const findings of byLanguage)
    for (const key of new Set(findings.filter((f) => f.lng !== '*').map(keyOf)))
      counts.set(key, (counts.get(key) ?? 0) + 1)
  const once = new Set<string>()
  return byLanguage.flat().flatMap((finding) => {
    const key = keyOf(finding)
    if (finding.lng === '*' || counts.get(key) !== byLanguage.length) return [finding]
    if (once.has(key)) return []
    once.add(key)
    return [{ ...finding, lng: '*' as const }]
  })
}
