/** The content report: what each page's visitors miss, per language. */
export { acceptGaps, gapLine, parseAcceptedGaps } from './accepted-gaps'
export { buildContentReport } from './build-report'
export type { PayloadLoad, PayloadLoads } from './payload-loads'
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
