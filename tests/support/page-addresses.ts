/**
 * The site's pages at their address in every language, for worker and browser tests alike:
 * '/', '/about', '/enterprises', '/contact-us', '/en', '/en/about', ... '/ru/contact-us'.
 */
import { LANGUAGES, localizePath } from '../../src/shared/languages'

/** Each page's path without language prefix. */
export const PAGE_KEYS = ['/', '/about', '/enterprises', '/contact-us'] as const

export const PAGE_ADDRESSES: readonly string[] = LANGUAGES.flatMap((lng) => PAGE_KEYS.map((key) => localizePath(key, lng)))

/**
 * One page of each kind, each kind in another language: home (the carousel), about, contact (the
 * form), enterprises. For browser checks whose faults follow a page's kind (its islands, its
 * images), not its language: the specs that take every address (visitor-pages, visitor-words,
 * routes) already show every page in every language.
 */
export const ONE_PAGE_OF_EACH_KIND: readonly string[] = ['/', '/en/about', '/ru/contact-us', '/en/enterprises']
