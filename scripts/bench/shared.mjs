/** What several bench steps share: the pages, the headers a browser sends, the machine, and units. */
import os from 'node:os'
import { PAGE_PATHS, PROJECTS_PATH } from '../../src/shared/site-paths.ts'

/** The navbar's pages and a project's page of the bundled content. */
export const PAGES = [...PAGE_PATHS, `${PROJECTS_PATH}/1-arabkir-residence`]
export const PREFIXES = ['', '/en', '/ru']
/** What a browser sends; the runtime compresses text for clients that accept it. */
export const BROWSER = { Accept: 'text/html,*/*', 'Accept-Encoding': 'gzip, br' }

/** The 12 pages: 4 pages in 3 languages, Armenian first (no prefix). */
export function everyPage() {
  return PREFIXES.flatMap((prefix) =>
    PAGES.map((page) => (page === '/' ? prefix || '/' : `${prefix}${page}`))
  )
}

/** A comma-separated list of page paths from an environment variable, or the default. */
export function pathList(value, fallback) {
  return (value || fallback)
    .split(',')
    .map((page) => page.trim())
    .filter(Boolean)
}

export function machine() {
  const cpus = os.cpus()
  return `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GB, ${os.type()} ${os.release()}, Node ${process.version}`
}

export function loadAverage() {
  return os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

export function kb(bytes) {
  return Number((bytes / 1024).toFixed(1))
}
