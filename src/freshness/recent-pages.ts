/**
 * The pages this isolate last stored or read, as plain bytes, so that a hit needs no Cache API
 * round trip. Bounded by size, least recently used first out. Isolates come and go and each has
 * its own; the Cache API holds the copy they share.
 */
import type { StoredPage } from './stored-page'

/** Far below the isolate's 128 MB; a page is some 45 KB, plus 10 KB compressed. */
const MAX_BYTES = 8 * 1024 * 1024

const pages = new Map<string, StoredPage>()
let totalBytes = 0

export function recallPage(key: string): StoredPage | undefined {
  const page = pages.get(key)
  if (page) {
    pages.delete(key)
    pages.set(key, page)
  }
  return page
}

export function rememberPage(key: string, page: StoredPage) {
  forget(key)
  pages.set(key, page)
  totalBytes += sizeOf(page)
  for (const oldest of pages.keys()) {
    if (totalBytes <= MAX_BYTES) break
    forget(oldest)
  }
}

function forget(key: string) {
  const page = pages.get(key)
  if (!page) return
  pages.delete(key)
  totalBytes -= sizeOf(page)
}

function sizeOf(page: StoredPage): number {
  return page.bytes.byteLength + page.gzip.byteLength
}
