/**
 * The content report as a page, for editors in preview: per page and language, how complete it is
 * and the gaps its visitors meet, each with its fix and a stable id that the page's marks link to;
 * each page links to its preview in every language. Plain HTML, no script: a standalone document,
 * not the site's layout, so nothing of the site's own content can fail it.
 */
import { gapAnchor, type ContentReport, type Gap, type PageCompleteness } from '../../report'
import { LANGUAGES, localizePath, type Lng } from '../../shared/languages'
import { CONTENT_REPORT_JSON } from '../../shared/report-addresses'

type ContentReportPageProps = {
  report: ContentReport
  /** A page key's preview address in a language ('/about', 'ru' -> '/_preview/ru/about'). */
  previewOf: (page: string, lng: Lng) => string
  /** Where "exit preview" leads. */
  exitHref: string
}

const LANGUAGE_NAMES: Record<Lng, string> = { hy: 'Հայերեն', en: 'English', ru: 'Русский' }

function percent(row: PageCompleteness | undefined): string {
  if (!row || row.shown === 0) return '–'
  return `${Math.floor((row.own / row.shown) * 100)} %`
}

/** The page keys of the report, in its order: the pages' own, then the navbar and dictionaries. */
function pagesOf(report: ContentReport): string[] {
  return [
    ...new Set([
      ...report.completeness.map((row) => row.page),
      ...report.gaps.map((gap) => gap.page),
    ]),
  ]
}

/** Whether a report page key is a page of the site (the navbar and dictionaries are not). */
const isSitePage = (page: string) => page.startsWith('/')

function GapLine({ gap }: { gap: Gap }) {
  const state = gap.accepted ? 'accepted' : gap.counted ? 'gap' : 'note'
  return (
    <li id={gapAnchor(gap)} className={`gap gap--${state}`}>
      <code>{gap.field || gap.source}</code> <span className="gap__kind">{gap.kind}</span>
      {gap.lng === '*' ? <span className="gap__all"> every language</span> : null}
      <div>{gap.detail}</div>
      <div className="gap__fix">
        Fix: {gap.fix} <span className="gap__source">({gap.source})</span>
      </div>
    </li>
  )
}

export function ContentReportPage({ report, previewOf, exitHref }: ContentReportPageProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>Content report · preview</title>
        <style dangerouslySetInnerHTML={{ __html: STYLES }} />
      </head>
      <body>
        <header className="report-header">
          <h1>Content report</h1>
          <p>
            What each page's visitors miss, per language, read from {report.backend} at{' '}
            <time dateTime={report.generatedAt}>{report.generatedAt}</time>:{' '}
            <strong>{report.open} open gap(s)</strong> of {report.gaps.length} listed.
          </p>
          <nav className="report-nav">
            <a href={CONTENT_REPORT_JSON}>The same report as JSON</a>
            <a href={exitHref}>Exit preview</a>
          </nav>
        </header>
        <main>
          {pagesOf(report).map((page) => {
            const gaps = report.gaps.filter((gap) => gap.page === page)
            return (
              <section key={page} className="report-page" aria-labelledby={`page-${page}`}>
                <h2 id={`page-${page}`}>{page}</h2>
                {gaps.filter((gap) => gap.lng === '*').length > 0 ? (
                  <ul className="gaps">
                    {gaps
                      .filter((gap) => gap.lng === '*')
                      .map((gap) => (
                        <GapLine key={gapAnchor(gap)} gap={gap} />
                      ))}
                  </ul>
                ) : null}
                {LANGUAGES.map((lng) => {
                  const own = gaps.filter((gap) => gap.lng === lng)
                  const row = report.completeness.find(
                    (candidate) => candidate.page === page && candidate.lng === lng
                  )
                  if (!row && own.length === 0) return null
                  return (
                    <div key={lng} className="report-language">
                      <h3>
                        {isSitePage(page) ? (
                          <a href={previewOf(page, lng)}>
                            {LANGUAGE_NAMES[lng]}: preview {localizePath(page, lng)}
                          </a>
                        ) : (
                          LANGUAGE_NAMES[lng]
                        )}{' '}
                        <span className="report-figure">{percent(row)}</span>
                      </h3>
                      {own.length > 0 ? (
                        <ul className="gaps">
                          {own.map((gap) => (
                            <GapLine key={gapAnchor(gap)} gap={gap} />
                          ))}
                        </ul>
                      ) : (
                        <p className="report-none">No gap.</p>
                      )}
                    </div>
                  )
                })}
              </section>
            )
          })}
        </main>
      </body>
    </html>
  )
}

const STYLES = `
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2a37;background:#f6f1ea}
.report-header,main{max-width:60rem;margin:0 auto;padding:1rem}
.report-nav{display:flex;flex-wrap:wrap;gap:1rem}
a{color:#8a3a17}
a:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.report-page{background:#fff;border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1rem}
h2{margin:.25rem 0;font-size:1.25rem;overflow-wrap:anywhere}
h3{margin:.75rem 0 .25rem;font-size:1rem}
.report-figure{font-weight:400;color:#4b5563}
.gaps{margin:0;padding-left:1.25rem}
.gap{margin:.375rem 0;overflow-wrap:anywhere}
.gap:target{background:#fef3c7;outline:2px dashed #b45309}
.gap--note,.gap--accepted{color:#4b5563}
.gap__kind{font-weight:600}
.gap__fix,.gap__source{color:#4b5563}
.report-none{margin:0;color:#4b5563}
`
