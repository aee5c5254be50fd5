/**
 * The content report in preview: `/report` as a page for editors, `/report.json` as
 * `npm run content:check -- --json` prints it, for a CMS (docs/operations.md, "Content health").
 * Mounted by the preview site behind its gate, so only a preview session reads it. The backend is
 * read as the CLI reads it, every payload at this moment (src/report/load-payloads.ts),
 * with the editor's token, and its images opened as the image route opens them.
 */
import { Hono, type Context } from 'hono'
import { renderToStaticMarkup } from 'react-dom/server'
import type { AppEnv } from '../env'
import { loadPayloads, reportOfLoads, type ContentReport } from '../report'
import { editorBackend } from '../content/backend-transport'
import { localizePath } from '../shared/languages'
import { PREVIEW_EXIT_PATH, PREVIEW_REPORT_PATH, previewPathOf } from '../shared/site-paths'
import { ContentReportPage } from '../views/pages/content-report-page'

export const contentReport = new Hono<AppEnv>()

/** Headers of both answers: for this editor only, never stored, never indexed. */
const PRIVATE = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' }

async function reportOf(c: Context<AppEnv>): Promise<ContentReport> {
  const loads = await loadPayloads({ ...editorBackend(c.env), META_PATH: c.env.META_PATH })
  return reportOfLoads(loads, c.env)
}

contentReport.get(`${PREVIEW_REPORT_PATH}.json`, async (c) =>
  c.json(await reportOf(c), 200, PRIVATE)
)

contentReport.get(PREVIEW_REPORT_PATH, async (c) => {
  const report = await reportOf(c)
  const html = renderToStaticMarkup(
    <ContentReportPage
      report={report}
      previewOf={(page, lng) => previewPathOf(localizePath(page, lng))}
      exitHref={PREVIEW_EXIT_PATH}
    />
  )
  return c.html(`<!DOCTYPE html>${html}`, 200, PRIVATE)
})
