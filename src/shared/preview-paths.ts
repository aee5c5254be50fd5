/**
 * Where preview pages live: each page of the site at PREVIEW_PREFIX followed by its public address
 * (`/_preview/en/about`, `/_preview/` for the Armenian home), an address of its own that no cache in
 * front of the worker has a visitor's copy of (docs/decisions/0045-preview-mode.md). Shared by the
 * worker, the language dropdown (which keeps an editor inside preview) and the operator scripts.
 */

/** The path prefix of every preview address. */
export const PREVIEW_PREFIX = '/_preview'

/** The signed link's address, which sets the preview cookie (src/preview/enter.ts). */
export const PREVIEW_ENTER_PATH = `${PREVIEW_PREFIX}/enter`

/** The address that ends a preview (src/preview/exit.ts). */
export const PREVIEW_EXIT_PATH = `${PREVIEW_PREFIX}/exit`

/** The `path` a link names for the content report's page, which lives at `/_preview/report`. */
export const PREVIEW_REPORT_PATH = '/report'

/** The preview address of a public path: '/en/about' -> '/_preview/en/about', '/' -> '/_preview/'. */
export function previewPathOf(publicPath: string): string {
  return `${PREVIEW_PREFIX}${publicPath}`
}

/**
 * The public path inside a preview address, or null for any other address:
 * '/_preview/en/about' -> '/en/about'; '/_preview' and '/_preview/' -> '/'.
 */
export function publicPathOf(pathname: string): string | null {
  if (pathname === PREVIEW_PREFIX) return '/'
  if (!pathname.startsWith(`${PREVIEW_PREFIX}/`)) return null
  return pathname.slice(PREVIEW_PREFIX.length)
}
