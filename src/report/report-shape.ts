/**
 * The content report's shape (docs/operations.md, "Content health"): what `npm run content:check
 * -- --json` prints and what the publish hook's answer carries under `content`. Stable: a change
 * that breaks a reader bumps REPORT_VERSION.
 */
import type { Lng } from '../shared/languages'

export const REPORT_VERSION = 1

/** What a visitor misses. */
export type GapKind =
  /** The field is shown from another language's variant (`detail` says which). */
  | 'fallback'
  /** The field is empty in every variant: nothing is shown. */
  | 'empty'
  /** The field is empty in every variant and the site shows its own dictionary's text (`detail` quotes it). */
  | 'dictionary-default'
  /** A list is empty: its section (or carousel, cards, logos) is not shown. */
  | 'hidden-section'
  /** An address was dropped as malformed or unsafe (`detail` says why); the slot's fallback applies. */
  | 'dropped-address'
  /** The sanitizer removed something from an HTML field (`detail` says what). */
  | 'sanitized'
  /** An enterprise item has no page of its own (`detail` says why). */
  | 'no-page'
  /** An image's original cannot be shown: the bundled image is (`detail` says why). */
  | 'image-failed'
  /** An original far larger than any rendition the site makes of it (bytes and pixels). */
  | 'image-oversized'
  /** A payload the backend did not deliver; its pages' other gaps are unknown. */
  | 'payload-failed'
  /** A bundled dictionary key (src/shared/i18n) that one language lacks. */
  | 'dictionary-key'

export type Gap = {
  /** The page key ('/', '/about', '/enterprises/1-arabkir-residence'), or 'navbar', 'dictionaries'. */
  page: string
  /** The visitors' language, or '*' for every language (an address, a list, a failed payload). */
  lng: Lng | '*'
  kind: GapKind
  /** The payload (`get-about-page`, `page-meta-data:/about`) or dictionary file it comes from. */
  source: string
  /** The field to fix, as a path in the payload (`missions[1].ru_title`). */
  field: string
  /** What the visitor gets instead, or why. */
  detail: string
  /** What to do about it. */
  fix: string
  /** Whether `npm run content:check -- --check` counts it (docs/operations.md). */
  counted: boolean
  /** Whether the operator's accept file accepts it (never, in the publish hook's answer). */
  accepted: boolean
}

/**
 * How complete a page is in one language: of the `shown` fields its visitors are shown (or should
 * be), `own` are as the editor meant them: `shown` less the page's counted gaps in that language
 * (its own and those of every language), so a page with a gap is never at 100 %.
 */
export type PageCompleteness = { page: string; lng: Lng; own: number; shown: number }

export type ContentReport = {
  version: typeof REPORT_VERSION
  /** The backend read: its origin and product, or the bundled service. */
  backend: string
  /** ISO time the report was made. */
  generatedAt: string
  completeness: PageCompleteness[]
  gaps: Gap[]
  /** Gaps counted and not accepted: `--check` exits 1 when this is above 0. */
  open: number
}

/** The kinds `--check` counts: what a visitor misses for a fault an editor can fix. */
export const COUNTED_KINDS: ReadonlySet<GapKind> = new Set<GapKind>([
  'fallback',
  'empty',
  'hidden-section',
  'dropped-address',
  'sanitized',
  'no-page',
  'image-failed',
  'payload-failed',
  'dictionary-key',
])
