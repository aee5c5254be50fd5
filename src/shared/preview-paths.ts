/**
 * A public address's preview and back (the prefix: PREVIEW_PREFIX in ./site-paths.ts). Shared by
 * the worker, the language dropdown (which keeps an editor inside preview) and the scripts.
 */
import { PREVIEW_PREFIX } from './site-paths'

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
