/**
 * The fields the spec lets an editor leave empty (spec section 2; payload-fields.md): an item's
 * icon and icon link, the social links, the second banners, and a button with neither a name nor a
 * link. Visitors miss nothing when they are empty, so the report lists them only where something
 * shows wrong: an icon link with no icon to carry it, a button name with nowhere to go, a link
 * with no name to show.
 */
import { hasText } from '../content/has-text'
import { SOCIAL_LINK_FIELDS } from '../content/schemas'

type Fields = Record<string, unknown>

/** Fields that may be empty on their own. */
const OPTIONAL: ReadonlySet<string> = new Set(['iconLink', ...SOCIAL_LINK_FIELDS])
/** The second banners (contact's beside the form, about's with its bundled fallback), by path. */
const SECOND_BANNERS = new Set(['secondBanner', 'secondBanner.img'])
/** Lists whose items' buttons lead to the item's project page, or the list, without a link. */
const ITEMS_WITH_PAGES = /^(enterprisesHome|enterprises)\[\d+\]\./

const VARIANTS = ['', 'en_', 'ru_', 'arm_']

function anyVariantHasText(record: Fields, base: string): boolean {
  return VARIANTS.some((prefix) => {
    const value = record[`${prefix}${base}`]
    return typeof value === 'string' && hasText(value)
  })
}

function filled(record: Fields, key: string): boolean {
  const value = record[key]
  return typeof value === 'string' && hasText(value)
}

/**
 * Whether `key` of `record` (at `field`, its path in the payload) may be empty: visitors get the
 * page as it should be without it. `key` is a localized field's base name (`btnName`).
 */
export function mayBeEmpty(record: Fields, key: string, field: string): boolean {
  const path = field.replace(/\[\d+\]/g, '[]')
  if (OPTIONAL.has(key) || SECOND_BANNERS.has(path)) return true
  if (key === 'icon') return !filled(record, 'iconLink')
  const name = /^(.*)btnName$/i.exec(key)
  if (name) return !filled(record, `${name[1]}${name[1] ? 'BtnLink' : 'btnLink'}`)
  const link = /^(.*)btnLink$/i.exec(key)
  if (link) {
    const nameKey = `${link[1]}${link[1] ? 'BtnName' : 'btnName'}`
    return !anyVariantHasText(record, nameKey) || ITEMS_WITH_PAGES.test(field)
  }
  return false
}
