/**
 * What one payload's visitors of one language miss, found by walking the payload as the schemas
 * parsed it beside the payload as the CMS sent it. Every judgement is the site's own: the picker
 * (../localize.ts) says which variant a field is shown from, the address parser (../addresses.ts)
 * why an address was dropped, the sanitizer (../sanitize-html.ts) what it removed. The fields
 * walked are the schemas' (../schemas.ts), and the views show every field the schemas read.
 */
import type { Lng } from '../../shared/languages'
import { checkAddress } from '../addresses'
import { pickVariant, variantPrefix } from '../localize'
import { sanitizeHtml } from '../sanitize-html'
import { ADDRESS_FIELDS, HTML_FIELDS, IMAGE_FIELDS } from '../schemas'
import type { Gap } from './report-shape'

/** A gap before it is placed on a page. */
export type Finding = Pick<Gap, 'lng' | 'kind' | 'field' | 'detail'>
/** Localized fields shown, and how many of them from the language's own variant. */
export type Tally = { own: number; shown: number }

const PREFIXES = ['en_', 'ru_', 'arm_']
const LANGUAGE_OF_PREFIX: Record<string, string> = {
  en_: 'English',
  ru_: 'Russian',
  arm_: 'Armenian',
  '': 'English',
}

type Fields = Record<string, unknown>

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
 * the CMS sent it; counts its localized fields into `tally`. Gaps that are the same in every
 * language (addresses, lists, other text) have lng '*'. In an item of a list in the language's own
 * variant (`ru_banner`), the unprefixed fields are that language's too.
 */
export function findPayloadGaps(
  raw: unknown,
  parsed: Fields,
  lng: Lng,
  tally: Tally,
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
      findings.push(...localizedGaps(source, parsed, key, lng, tally, at, inOwnList))
    } else if (typeof value === 'string') {
      findings.push(...plainGaps(source[key], value, key, at(key)))
    } else if (Array.isArray(value)) {
      if (value.length === 0)
        findings.push({
          lng: '*',
          kind: 'hidden-section',
          field: at(key),
          detail: 'no items: not shown',
        })
      const entries = recordsOf(source[key])
      value.forEach((item: Fields, index) =>
        findings.push(
          ...findPayloadGaps(entries[index], item, lng, tally, at(`${key}[${index}]`), inOwnList)
        )
      )
    } else if (isRecord(value)) {
      findings.push(...findPayloadGaps(source[key], value, lng, tally, at(key), inOwnList))
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
  tally: Tally,
  at: (key: string) => string,
  inOwnList: boolean
): Finding[] {
  const { value, from } = pickVariant(parsed, base, lng)
  const own = ownVariant(base, lng)
  const findings: Finding[] = []
  tally.shown += 1
  if (from === null) {
    const detail = Array.isArray(value)
      ? 'no items in any language: not shown'
      : 'empty in every language'
    findings.push({
      lng,
      kind: Array.isArray(value) ? 'hidden-section' : 'empty',
      field: at(own),
      detail,
    })
    return findings
  }
  const isOwn =
    from === own || (lng === 'en' && from === `en_${base}`) || (inOwnList && from === base)
  if (isOwn) tally.own += 1
  else {
    const prefix = PREFIXES.find((candidate) => from.startsWith(candidate)) ?? ''
    findings.push({
      lng,
      kind: 'fallback',
      field: at(own),
      detail: `shown from ${from} (${LANGUAGE_OF_PREFIX[prefix]})`,
    })
  }
  if (Array.isArray(value)) {
    const entries = recordsOf(source[from])
    value.forEach((item, index) => {
      if (isRecord(item))
        findings.push(
          ...findPayloadGaps(entries[index], item, lng, tally, at(`${from}[${index}]`), isOwn)
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
  if (key === 'id') return []
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
  return value.trim() === '' ? [{ lng: '*', kind: 'empty', field, detail: 'empty: not shown' }] : []
}
