/**
 * The content report's addresses in preview: its page, for editors, and its JSON, for a CMS
 * (docs/operations.md, "Content health"). Both answer only inside a preview session.
 */

/** The report as a page: per page and language, the gaps with their fixes. */
export const CONTENT_REPORT_PAGE = '/_preview/report'

/** The report as `npm run content:check -- --json` prints it. */
export const CONTENT_REPORT_JSON = '/_preview/report.json'
