/**
 * The content report's addresses in preview: its page, for editors, and its JSON, for a CMS
 * (docs/operations.md, "Content health"). Both answer only inside a preview session.
 */
import { PREVIEW_REPORT_PATH, previewPathOf } from './preview-paths'

/** The report as a page: per page and language, the gaps with their fixes. */
export const CONTENT_REPORT_PAGE = previewPathOf(PREVIEW_REPORT_PATH)

/** The report as `npm run content:check -- --json` prints it. */
export const CONTENT_REPORT_JSON = previewPathOf(`${PREVIEW_REPORT_PATH}.json`)
