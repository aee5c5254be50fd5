/**
 * The one list of languages: routing, hreflang, the sitemap and the dropdown all read it.
 * Armenian is the default and has no path prefix; en and ru live under /en and /ru.
 */
import { previewPathOf, publicPathOf } from './site-paths.ts'

export const LANGUAGES = ['hy', 'en', 'ru'] as const
export type Lng = (typeof LANGUAGES)[number]

export const DEFAULT_LNG: Lng = 'hy'

/** Languages that appear as a path prefix. */
export const PREFIXED_LANGUAGES = ['en', 'ru'] as const satisfies readonly Lng[]

/** The dropdown's entry for each language, written in that language. */
export const LANGUAGE_NAMES: Record<Lng, string> = {
  en: 'ENGLISH',
  ru: 'РУССКИЙ',
  hy: 'ՀԱՅԵՐԵՆ',
}

export function isLng(value: string | undefined): value is Lng {
  return (LANGUAGES as readonly string[]).includes(value ?? '')
}

/** Splits '/ru/about' into { lng: 'ru', path: '/about' }; an unprefixed path is Armenian. */
export function splitLanguagePrefix(pathname: string): { lng: Lng; path: string } {
  const match = /^\/(en|ru)(?=\/|$)/.exec(pathname)
  if (!match) return { lng: DEFAULT_LNG, path: pathname || '/' }
  const rest = pathname.slice(match[0].length)
  return { lng: match[1] as Lng, path: rest || '/' }
}

/**
 * The address of `path` (a page key such as '/about') in `lng`: '/about', '/en/about', '/ru'.
 * Always site-relative: tabs and newlines (which browsers drop) and leading slashes and
 * backslashes collapse to one '/', so '//evil.example' and '/\\evil.example' become '/evil.example'.
 */
export function localizePath(path: string, lng: Lng): string {
  const clean = `/${path.replace(/[\t\n\r]/g, '').replace(/^[/\\]+/, '')}`
  if (lng === DEFAULT_LNG) return clean
  return clean === '/' ? `/${lng}` : `/${lng}${clean}`
}

/**
 * Rewrites the language prefix of a full path (adds, replaces or removes it),
 * keeping any query string and hash: '/ru/about?x=1#top' -> '/en/about?x=1#top'. A preview
 * address stays one: '/_preview/ru/about' -> '/_preview/en/about' (./site-paths.ts).
 */
export function switchLanguagePath(pathWithSearch: string, lng: Lng): string {
  const cut = pathWithSearch.search(/[?#]/)
  const pathname = cut === -1 ? pathWithSearch : pathWithSearch.slice(0, cut)
  const tail = cut === -1 ? '' : pathWithSearch.slice(cut)
  const previewed = publicPathOf(pathname)
  if (previewed !== null)
    return previewPathOf(localizePath(splitLanguagePrefix(previewed).path, lng)) + tail
  return localizePath(splitLanguagePrefix(pathname).path, lng) + tail
}

/**
 * The hreflang alternates of a page key, the same in the document head and the sitemap: one per
 * language, plus x-default pointing at the Armenian (default) address.
 * https://developers.google.com/search/docs/specialty/international/localized-versions
 */
export function hreflangAlternates(path: string): { hreflang: Lng | 'x-default'; path: string }[] {
  return [
    ...LANGUAGES.map((lng) => ({ hreflang: lng, path: localizePath(path, lng) })),
    { hreflang: 'x-default' as const, path: localizePath(path, DEFAULT_LNG) },
  ]
}
