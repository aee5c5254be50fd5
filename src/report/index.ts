/** The content report: what each page's visitors miss, per language. */
export { acceptGaps, gapLine, parseAcceptedGaps } from './accepted-gaps'
export { buildContentReport } from './build-report'
export type { PayloadLoad, PayloadLoads } from './payload-loads'
export { formatReportText } from './format-text'
export * from './report-shape'
export {
  findImageGaps,
  imageUsesOf,
  judgeOriginal,
  type ImageUse,
  type OpenOptions,
} from './image-findings'
export { loadPayloads, pagesWithMeta } from './load-payloads'
export { gapAnchor, gapCountsOf, gapsOfPage } from './page-gaps'
export { reportOfLoads } from './preview-report'
