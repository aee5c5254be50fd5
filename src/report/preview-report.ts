/**
 * The content report of what one preview request loaded (`c.var.previewLoads`), images included:
 * the marks on a preview page and its bar's counts come from this one reading, so they cannot
 * disagree with each other or with `npm run content:check`.
 */
import type { Bindings } from '../env'
import { originTimeoutMs } from '../images'
import { buildContentReport } from './build-report'
import { findImageGaps } from './image-findings'
import type { PayloadLoads } from './payload-loads'
import type { ContentReport } from './report-shape'

/** How the worker's reports name the backend they read. */
export function backendLabel(env: Pick<Bindings, 'API_HOST' | 'PRODUCT'>): string {
  return env.API_HOST
    ? `${env.API_HOST} (product ${env.PRODUCT})`
    : `the bundled reference service (product ${env.PRODUCT})`
}

const reports = new WeakMap<PayloadLoads, Promise<ContentReport>>()

/** The report of `loads`, made once per set of loads however many views ask for it. */
export function reportOfLoads(loads: PayloadLoads, env: Bindings): Promise<ContentReport> {
  let report = reports.get(loads)
  if (!report) {
    report = findImageGaps(loads, {
      env: { API_HOST: env.API_HOST ?? '', IMAGE_ORIGINS: env.IMAGE_ORIGINS ?? '' },
      assets: env.ASSETS,
      timeoutMs: originTimeoutMs(env),
    }).then((extra) => buildContentReport(loads, { backend: backendLabel(env), extra }))
    reports.set(loads, report)
  }
  return report
}
