/**
 * The site's pages at their address in every language, for worker and browser tests alike:
 * '/', '/about', '/enterprises', '/contact-us', '/en', '/en/about', ... '/ru/contact-us'.
 */
import { LANGUAGES, localizePath } from '../../src/shared/languages'

/** Each page's path without language prefix. */
export const PAGE_KEYS = ['/', '/about', '/enterprises', '/contact-us'] as const

export const PAGE_ADDRESSES: readonly string[] = LANGUAGES.flatMap((lng) => PAGE_KEYS.map((key) => localizePath(key, lng)))
