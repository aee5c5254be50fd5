/**
 * The field report of `npm run vitals`: eight queries (./sql.mjs) and what they say, as text for
 * an operator or JSON for a machine.
 *
 * - site verdict: each metric's p75 and n, on every device and on all together, with the good /
 *   needs improvement / poor split of the readings and the verdict of the p75 by Google's
 *   thresholds (https://web.dev/articles/defining-core-web-vitals-thresholds);
 * - worst pages: page by device, ranked by poor readings (poor share times traffic);
 * - deploys: the latest version against the one before, by metric, with n on both sides;
 * - server timing: page views (TTFB readings) by how the page was served, with TTFB and the
 *   worker's time;
 * - top client errors, by message and source;
 * - messages: the messages the site kept, by the page whose form sent them and the project they
 *   ask about, beside that page's page views (its TTFB readings) and their ratio, and for a project
 *   its own page's views and messages per view of it.
 *
 * A figure over fewer than MIN_N readings (weighted) is "not enough data", never a number.
 */
import { PROJECTS_PATH } from '../../../src/shared/site-paths.ts'
import { DEVICE_CLASSES, METRIC_NAMES } from '../../../src/shared/telemetry.ts'
import { buildQuery } from './sql.mjs'
import { numberOf } from './sql-api.mjs'

export const MIN_N = 50
/** Google's thresholds: p75 at or under `good` is good, over `poor` is poor. Milliseconds, CLS unitless. */
export const THRESHOLDS = {
  LCP: { good: 2500, poor: 4000 },
  INP: { good: 200, poor: 500 },
  CLS: { good: 0.1, poor: 0.25 },
  FCP: { good: 1800, poor: 3000 },
  TTFB: { good: 800, poor: 1800 },
}
const ALL = 'all'
const WORST_PAGES = 10
const TOP_ERRORS = 10

const TOP_MESSAGES = 20
/**
 * Pages whose page views are read for the messages' ratios: the most viewed. A page below them
 * counts no views, so its ratio says "not enough data".
 */
const VIEWED_PAGES = 1000

export function verdictOf(metric, p75) {
  const { good, poor } = THRESHOLDS[metric]
  return p75 <= good ? 'good' : p75 > poor ? 'poor' : 'needs improvement'
}

/** Gathers the report; `query(sql)` runs one query and resolves to its rows. */
export async function gatherReport(query, { dataset, days, country }) {
  const filters = { days, country }
  const vital = (spec) => query(buildQuery({ dataset, kind: 'vital', filters, ...spec }))
  const verdictMeasures = ['n', 'p75', 'good', 'poor']
  const [byDevice, overall, pages, versions, served, errors, messages, views] = await Promise.all([
    vital({ dimensions: ['metric', 'device'], measures: verdictMeasures }),
    vital({ dimensions: ['metric'], measures: verdictMeasures }),
    vital({
      dimensions: ['page', 'device'],
      measures: ['n', 'poor'],
      orderBy: { by: 'poor', descending: true },
      limit: 500,
    }),
    vital({ dimensions: ['version', 'metric'], measures: ['n', 'p75', 'firstSeen'] }),
    vital({
      dimensions: ['cache'],
      measures: ['n', 'p75', 'serverP75'],
      filters: { ...filters, metric: 'TTFB' },
    }),
    query(
      buildQuery({
        dataset,
        kind: 'client-error',
        dimensions: ['message', 'source'],
        measures: ['n', 'lastSeen'],
        filters,
        orderBy: { by: 'n', descending: true },
        limit: TOP_ERRORS,
      })
    ),
    query(
      buildQuery({
        dataset,
        kind: 'message',
        dimensions: ['page', 'project'],
        measures: ['n'],
        filters,
        orderBy: { by: 'n', descending: true },
        limit: TOP_MESSAGES,
      })
    ),
    vital({
      dimensions: ['page'],
      measures: ['n'],
      filters: { ...filters, metric: 'TTFB' },
      orderBy: { by: 'n', descending: true },
      limit: VIEWED_PAGES,
    }),
  ])
  return {
    dataset,
    days,
    country: country ?? null,
    minN: MIN_N,
    verdict: siteVerdict(byDevice, overall),
    worstPages: worstPages(pages),
    deploys: deploys(versions),
    serverTiming: serverTiming(served),
    clientErrors: errors.map((row) => ({
      message: String(row.message ?? ''),
      source: String(row.source ?? ''),
      n: numberOf(row.n),
      lastSeen: String(row.lastSeen ?? ''),
    })),
    messages: messagesBySource(messages, views),
  }
}

/**
 * Messages by page and project, beside the page's page views (TTFB readings: one per page view)
 * and, for a project, its own page's views: every slug of its id seen in the period (a title changed
 * on the way gives two), summed. Each ratio only where its page views reach MIN_N.
 */
function messagesBySource(messages, views) {
  const viewsOf = new Map()
  const projectViewsOf = new Map()
  for (const row of views) {
    const page = String(row.page ?? '')
    const n = numberOf(row.n)
    viewsOf.set(page, n)
    const project = projectOfPage(page)
    if (project !== null) projectViewsOf.set(project, (projectViewsOf.get(project) ?? 0) + n)
  }
  return messages
    .map((row) => {
      const page = String(row.page ?? '')
      const project = String(row.project ?? '')
      const pageViews = viewsOf.get(page) ?? 0
      const n = numberOf(row.n)
      const enough = pageViews >= MIN_N
      return {
        page,
        project,
        messages: n,
        pageViews,
        enough,
        ...(enough ? { perView: n / pageViews } : {}),
        ...(project ? projectPageFigures(n, projectViewsOf.get(project) ?? 0) : {}),
      }
    })
    .sort((a, b) => b.messages - a.messages)
}

function projectPageFigures(messages, projectPageViews) {
  const projectEnough = projectPageViews >= MIN_N
  return {
    projectPageViews,
    projectEnough,
    ...(projectEnough ? { perProjectPageView: messages / projectPageViews } : {}),
  }
}

/** The project id a viewed page is the page of (`/enterprises/1-arabkir-residence` is 1's), or null. */
function projectOfPage(page) {
  if (!page.startsWith(`${PROJECTS_PATH}/`)) return null
  const slug = page.slice(PROJECTS_PATH.length + 1)
  if (!slug || slug.includes('/')) return null
  const cut = slug.indexOf('-')
  return cut === -1 ? slug : slug.slice(0, cut)
}

/** One cell: p75 and split when n is enough, else only n. */
function cell(metric, row) {
  const n = row ? numberOf(row.n) : 0
  if (!(n >= MIN_N)) return { n, enough: false }
  const p75 = numberOf(row.p75)
  const good = numberOf(row.good) / n
  const poor = numberOf(row.poor) / n
  return {
    n,
    enough: true,
    p75,
    split: { good, needsImprovement: Math.max(0, 1 - good - poor), poor },
    verdict: verdictOf(metric, p75),
  }
}

function siteVerdict(byDevice, overall) {
  const find = (rows, metric, device) =>
    rows.find((row) => row.metric === metric && (device === ALL || row.device === device))
  return METRIC_NAMES.map((metric) => ({
    metric,
    devices: [ALL, ...DEVICE_CLASSES].map((device) => ({
      device,
      ...cell(metric, find(device === ALL ? overall : byDevice, metric, device)),
    })),
  }))
}

function worstPages(rows) {
  return rows
    .map((row) => ({
      page: String(row.page ?? ''),
      device: String(row.device || 'unknown'),
      n: numberOf(row.n),
      poor: numberOf(row.poor),
    }))
    .filter((row) => row.n >= MIN_N && row.poor > 0)
    .sort((a, b) => b.poor - a.poor || b.n - a.n)
    .slice(0, WORST_PAGES)
    .map((row) => ({ ...row, poorShare: row.poor / row.n }))
}

function deploys(rows) {
  const versions = new Map()
  for (const row of rows) {
    const id = String(row.version ?? '')
    if (!id) continue
    const version = versions.get(id) ?? { version: id, firstSeen: '', metrics: {} }
    const firstSeen = String(row.firstSeen ?? '')
    if (!version.firstSeen || firstSeen < version.firstSeen) version.firstSeen = firstSeen
    version.metrics[row.metric] = cell(row.metric, { n: row.n, p75: row.p75, good: 0, poor: 0 })
    versions.set(id, version)
  }
  const [latest, previous] = [...versions.values()].sort((a, b) =>
    b.firstSeen.localeCompare(a.firstSeen)
  )
  const side = (version) =>
    version && {
      version: version.version,
      firstSeen: version.firstSeen,
      metrics: Object.fromEntries(
        METRIC_NAMES.map((metric) => {
          const { n = 0, enough = false, p75, verdict } = version.metrics[metric] ?? {}
          return [metric, enough ? { n, enough, p75, verdict } : { n, enough }]
        })
      ),
    }
  return { latest: side(latest) ?? null, previous: side(previous) ?? null }
}

function serverTiming(rows) {
  const total = rows.reduce((sum, row) => sum + numberOf(row.n), 0)
  return rows
    .map((row) => {
      const n = numberOf(row.n)
      const cache = String(row.cache || 'unknown')
      const server = numberOf(row.serverP75)
      return {
        cache,
        n,
        share: total ? n / total : 0,
        enough: n >= MIN_N,
        ...(n >= MIN_N
          ? { ttfbP75: numberOf(row.p75), serverP75: server >= 0 ? server : null }
          : {}),
      }
    })
    .sort((a, b) => b.n - a.n)
}

/** The site-level cells with enough data whose p75 is not good: what `--check` fails on. */
export function checkFailures(report) {
  return report.verdict.flatMap(({ metric, devices }) =>
    devices
      .filter((cell) => cell.enough && cell.verdict !== 'good')
      .map((cell) => ({ metric, device: cell.device, p75: cell.p75, verdict: cell.verdict }))
  )
}

// --- text -----------------------------------------------------------------------------------

const NOT_ENOUGH = 'not enough data'

export function formatValue(metric, value) {
  if (metric === 'CLS') return value.toFixed(2)
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`
}

const percent = (share) => `${Math.round(share * 100)}%`
const count = (n) => String(Math.round(n))

function table(header, rows) {
  const widths = header.map((_, i) =>
    Math.max(...[header, ...rows].map((row) => String(row[i]).length))
  )
  return [header, ...rows]
    .map((row) =>
      row
        .map((value, i) => String(value).padEnd(widths[i]))
        .join('  ')
        .trimEnd()
    )
    .join('\n')
}

/** A value from a row, printed so that no control character or escape sequence reaches the terminal. */
function printable(text, max = 80) {
  const clean = String(text).replace(
    /[\u0000-\u001f\u007f-\u009f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
  )
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean
}

export function formatReport(report, { env }) {
  const lines = []
  lines.push(
    `Field web vitals: ${env} (dataset ${report.dataset}), last ${report.days} day${report.days === 1 ? '' : 's'}, ${report.country ? `visitors in ${report.country}` : 'all countries'}.`,
    `Every figure is weighted by _sample_interval; n counts readings; a cell under n=${report.minN} says "${NOT_ENOUGH}".`,
    '',
    'Site verdict (p75 of each metric, Google thresholds)'
  )
  const verdictRows = report.verdict.flatMap(({ metric, devices }) =>
    devices.map((cell) =>
      cell.enough
        ? [
            metric,
            cell.device,
            formatValue(metric, cell.p75),
            count(cell.n),
            `${percent(cell.split.good)} / ${percent(cell.split.needsImprovement)} / ${percent(cell.split.poor)}`,
            cell.verdict,
          ]
        : [metric, cell.device, NOT_ENOUGH, count(cell.n), '', '']
    )
  )
  lines.push(
    table(['metric', 'device', 'p75', 'n', 'good / NI / poor', 'verdict'], verdictRows),
    ''
  )

  lines.push('Worst pages (page by device, by poor readings: poor share times traffic)')
  lines.push(
    report.worstPages.length
      ? table(
          ['page', 'device', 'n', 'poor', 'poor share'],
          report.worstPages.map((row) => [
            printable(row.page, 60),
            row.device,
            count(row.n),
            count(row.poor),
            percent(row.poorShare),
          ])
        )
      : `(no page with poor readings and n >= ${report.minN})`,
    ''
  )

  lines.push('Deploys (the latest version against the previous one)')
  const { latest, previous } = report.deploys
  if (!latest) lines.push('(no beacon named a version)')
  else {
    const side = (version, metric) => {
      const figures = version?.metrics[metric]
      if (!version) return '-'
      return figures.enough
        ? `${formatValue(metric, figures.p75)} (n=${count(figures.n)})`
        : `${NOT_ENOUGH} (n=${count(figures.n)})`
    }
    lines.push(
      `latest:   ${printable(latest.version)} (first seen ${latest.firstSeen})`,
      `previous: ${previous ? `${printable(previous.version)} (first seen ${previous.firstSeen})` : '(none in this period)'}`,
      table(
        ['metric', 'latest p75', 'previous p75'],
        METRIC_NAMES.map((metric) => [metric, side(latest, metric), side(previous, metric)])
      )
    )
  }
  lines.push('')

  lines.push('Server timing (page views, from TTFB readings, by how the page was served)')
  lines.push(
    report.serverTiming.length
      ? table(
          ['served by', 'n', 'share', 'TTFB p75', 'worker p75'],
          report.serverTiming.map((row) => [
            printable(row.cache, 20),
            count(row.n),
            percent(row.share),
            row.enough ? formatValue('TTFB', row.ttfbP75) : NOT_ENOUGH,
            row.enough ? (row.serverP75 === null ? 'n/a' : formatValue('TTFB', row.serverP75)) : '',
          ])
        )
      : '(no TTFB readings)',
    ''
  )

  lines.push(
    "Messages (kept messages by the page whose form sent them and the project asked about, beside that page's page views and the project's own page's)"
  )
  const perView = (enough, share) => (enough ? `${(share * 100).toFixed(1)}%` : NOT_ENOUGH)
  lines.push(
    report.messages.length
      ? table(
          [
            'page',
            'project',
            'messages',
            'page views',
            'per view',
            'project page views',
            'per project page view',
          ],
          report.messages.map((row) => [
            printable(row.page, 60),
            printable(row.project || '-', 30),
            count(row.messages),
            count(row.pageViews),
            perView(row.enough, row.perView),
            ...(row.project
              ? [count(row.projectPageViews), perView(row.projectEnough, row.perProjectPageView)]
              : ['-', '-']),
          ])
        )
      : '(no messages)',
    ''
  )

  lines.push('Top client errors (by message and source)')
  lines.push(
    report.clientErrors.length
      ? table(
          ['n', 'message', 'source', 'last seen'],
          report.clientErrors.map((row) => [
            count(row.n),
            printable(row.message, 70),
            printable(row.source || '-', 50),
            row.lastSeen,
          ])
        )
      : '(none)'
  )
  return lines.join('\n')
}
