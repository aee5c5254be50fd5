/**
 * What one payload's visitors of one language miss, found by walking the payload as the schemas
 * parsed it beside the payload as the CMS sent it. Every judgement is the site's own: the picker
 * (../localize.ts) says which variant a field is shown from, the address parser (../addresses.ts)
 * why an address was dropped, the sanitizer (../sanitize-html.ts) what it removed, ../has-text.ts
 * whether a value is empty. The fields walked are the schemas' (../schemas.ts), and the views show
 * every field the schemas read; fields the spec lets an editor leave empty are skipped
 * (./optional-fields.ts), and a slot the site fills from its dictionary says so
 * (./dictionary-defaults.ts).
 */
import type { Lng } from '../shared/languages'
import { checkAddress } from '../content/addresses'
import { hasText } from '../content/has-text'
import { pickVariant, variantPrefix } from '../content/localize'
import { sanitizeHtml } from '../content/sanitize-html'
import { ADDRESS_FIELDS, HTML_FIELDS, IMAGE_FIELDS } from '../content/schemas'
import { dictionaryDefault } from './dictionary-defaults'
import { mayBeEmpty } from './optional-fields'
import type { Gap } from './report-shape'

/** A gap before it is placed on a page. */
export type Finding = Pick<Gap, 'lng' | 'kind' | 'field' | 'detail'>
/** How many fields of a page its visitors are shown (or should be): the completeness figure's whole. */
export type Tally = { shown: number }

const PREFIXES = ['en_', 'ru_', 'arm_']
const LANGUAGE_OF_PREFIX: Record<string, string> = {
  en_: 'English',
  ru_: 'Russian',
  arm_: 'Armenian',
  '': 'English',
}

type Fields = Record<string, unknown>

/** One payload's walk: its source (for the dictionary's defaults) and the page's tally. */
export type Walk = { source: string; tally: Tally }

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The records of a raw list, as the schemas keep them (entries that are not objects are dropped). */
function recordsOf(raw: unknown): Fields[] {
  return Array.isArray(raw) ? raw.filter(isRecord) : []
}

/** The base names of the localized fields of a parsed record (`title` for title, ru_title, ...). */
function localizedBases(record: Fields): Set<string> {
  const bases = new Set<string>()
  for (const key of Object.keys(record)) {
    const prefix = PREFIXES.find((candidate) => key.startsWith(candidate))
    if (prefix) bases.add(key.slice(prefix.length))
  }
  return bases
}

/** The name of `lng`'s own variant of `base`: English's is the unprefixed field (spec section 3). */
function ownVariant(base: string, lng: Lng): string {
  return lng === 'en' ? base : `${variantPrefix(lng)}${base}`
}

/**
 * The gaps of `parsed` (a payload or an item of one) for visitors in `lng`, with `raw` the same as
 * the CMS sent it; counts the fields it judges into `walk.tally`. Gaps that are the same in every
 * language (addresses, lists, other text) have lng '*'. In an item of a list in the language's own
 * variant (`ru_banner`), the unprefixed fields are that language's too.
 */
export function findPayloadGaps(
  raw: unknown,
  parsed: Fields,
  lng: Lng,
  walk: Walk,
  path = '',
  inOwnList = false
): Finding[] {
  const source = isRecord(raw) ? raw : {}
  const bases = localizedBases(parsed)
  const at = (key: string) => (path ? `${path}.${key}` : key)
  const findings: Finding[] = []
  for (const [key, value] of Object.entries(parsed)) {
    if (PREFIXES.some((prefix) => key.startsWith(prefix) && bases.has(key.slice(prefix.length))))
      continue
    if (bases.has(key)) {
      findings.push(...localizedGaps(source, parsed, key, lng, walk, at, inOwnList))
    } else if (typeof value === 'string') {
      if (key === 'id') continue
      const gaps = plainGaps(source[key], value, key, at(key))
      const onlyEmpty = gaps.every((gap) => gap.kind === 'empty')
      if (!hasText(value) && onlyEmpty && mayBeEmpty(parsed, key, at(key))) continue
      walk.tally.shown += 1
      findings.push(...gaps)
    } else if (Array.isArray(value)) {
      if (value.length === 0) {
        walk.tally.shown += 1
        findings.push({
          lng: '*',
          kind: 'hidden-section',
          field: at(key),
          detail: 'no items: not shown',
        })
      }
      const entries = recordsOf(source[key])
      value.forEach((item: Fields, index) =>
        findings.push(
          ...findPayloadGaps(entries[index], item, lng, walk, at(`${key}[${index}]`), inOwnList)
        )
      )
    } else if (isRecord(value)) {
      findings.push(...findPayloadGaps(source[key], value, lng, walk, at(key), inOwnList))
    }
  }
  return findings
}

/** A localized field as the picker shows it in `lng`; a picked list is walked on. */
function localizedGaps(
  source: Fields,
  parsed: Fields,
  base: string,
  lng: Lng,
  walk: Walk,
  at: (key: string) => string,
  inOwnList: boolean
): Finding[] {
  const { value, from } = pickVariant(parsed, base, lng)
  const own = ownVariant(base, lng)
  const findings: Finding[] = []
  if (from === null) {
    if (!Array.isArray(value) && mayBeEmpty(parsed, base, at(base))) return findings
    walk.tally.shown += 1
    const text = Array.isArray(value) ? null : dictionaryDefault(walk.source, at(base), lng)
    if (text !== null) {
      findings.push({
        lng,
        kind: 'dictionary-default',
        field: at(own),
        detail: `shows '${text}' from the site's dictionary`,
      })
      return findings
    }
    const button = /btnName$/i.test(base) ? ': the button is not shown' : ''
    findings.push({
      lng,
      kind: Array.isArray(value) ? 'hidden-section' : 'empty',
      field: at(own),
      detail: Array.isArray(value)
        ? 'no items in any language: not shown'
        : `empty in every language${button}`,
    })
    return findings
  }
  walk.tally.shown += 1
  const isOwn =
    from === own || (lng === 'en' && from === `en_${base}`) || (inOwnList && from === base)
  if (!isOwn) {
    const prefix = PREFIXES.find((candidate) => from.startsWith(candidate)) ?? ''
    const given = source[own]
    const markup =
      typeof given === 'string' && given.trim() !== ''
        ? `holds no text (${JSON.stringify(given.slice(0, 40))}): `
        : ''
    findings.push({
      lng,
      kind: 'fallback',
      field: at(own),
      detail: `${markup}shown from ${from} (${LANGUAGE_OF_PREFIX[prefix]})`,
    })
  }
  if (Array.isArray(value)) {
    const entries = recordsOf(source[from])
    value.forEach((item, index) => {
      if (isRecord(item))
        findings.push(
          ...findPayloadGaps(entries[index], item, lng, walk, at(`${from}[${index}]`), isOwn)
        )
    })
  } else if (HTML_FIELDS.has(base) && typeof source[from] === 'string') {
    const removed = new Set<string>()
    sanitizeHtml(source[from], { onRemoved: (what) => removed.add(what) })
    if (removed.size > 0)
      findings.push({
        lng,
        kind: 'sanitized',
        field: at(from),
        detail: `removed ${[...removed].join(', ')}`,
      })
  }
  return findings
}

/** A field with no language variants: an address, an id, a phone number. */
function plainGaps(raw: unknown, value: string, key: string, field: string): Finding[] {
  if (ADDRESS_FIELDS.has(key)) {
    const check = checkAddress(raw, IMAGE_FIELDS.has(key) ? 'image' : 'link')
    if ('problem' in check)
      return [
        {
          lng: '*',
          kind: 'dropped-address',
          field,
          detail: `${check.problem}: dropped, its slot's fallback applies`,
        },
      ]
  }
  if (hasText(value)) return []
  const detail = /btnLink$/i.test(key)
    ? 'empty: the button is not shown'
    : key === 'icon'
      ? 'empty: the icon link (iconLink) has no icon to show'
      : 'empty: not shown'
  return [{ lng: '*', kind: 'empty', field, detail }]
}
