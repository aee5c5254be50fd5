/** What `npm run preview:link` needs of the worker, bundled for Node by ../preview-link.mjs: its own signing code. */
export { newNonce, signPreviewLink } from '../../../src/preview/signing'
export { PREVIEW_REPORT_PATH } from '../../../src/shared/preview-paths'
