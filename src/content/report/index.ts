/** The content report (issue 49): what each page's visitors miss, per language. */
export { acceptGaps, gapLine, parseAcceptedGaps } from './accepted-gaps'
export { buildContentReport, type PayloadLoad, type PayloadLoads } from './build-report'
export { formatReportText } from './format-text'
export * from './report-shape'
export {
  imageUsesOf,
  judgeOriginal,
  refusedSource,
  type ImageUse,
  type OriginalRead,
} from './image-findings'
export { loadPayloads, pagesWithMeta } from './load-payloads'
