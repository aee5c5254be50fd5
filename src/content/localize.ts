/**
 * The one localized-field picker (spec section 3, "Localised fields").
 *
 * Russian reads `ru_<field>`, Armenian `arm_<field>`, English `en_<field>`; when that variant is
 * missing or empty the unprefixed field is the fallback, and a field empty in both gives '' or [].
 * A text is empty when it holds no visible text (./has-text.ts): `<p><br></p>`, as a rich-text
 * editor saves a cleared field, falls back like a missing field.
 */
import type { Lng } from '../shared/languages'
import { hasText } from './has-text'

const PREFIX: Record<Lng, string> = { en: 'en_', ru: 'ru_', hy: 'arm_' }

function isFilled(value: unknown): boolean {
  if (typeof value === 'string') return hasText(value)
  if (Array.isArray(value)) return value.length > 0
  return false
}

type Picked<T, K extends keyof T> = T[K] extends string
  ? string
  : T[K] extends unknown[]
    ? T[K]
    : never

/** The `lng` variant of `record[field]`, falling back to the unprefixed field. */
export function pickLocalized<T extends object, K extends keyof T & string>(
  record: T,
  field: K,
  lng: Lng
): Picked<T, K> {
  return pickVariant(record, field, lng).value as Picked<T, K>
}

/** What the picker shows for a field, and from which of the record's fields (null: none, the value is empty). */
export type PickedVariant = { value: string | unknown[]; from: string | null }

/** The picker itself, saying which variant it used: the content report reads this (src/report/). */
export function pickVariant(record: object, field: string, lng: Lng): PickedVariant {
  const fields = record as Record<string, unknown>
  const own = `${PREFIX[lng]}${field}`
  const variant = fields[own]
  if (isFilled(variant)) return { value: variant as string | unknown[], from: own }
  const fallback = fields[field]
  if (isFilled(fallback)) return { value: fallback as string | unknown[], from: field }
  return { value: Array.isArray(variant) || Array.isArray(fallback) ? [] : '', from: null }
}

/** The prefix of `lng`'s own variant: `ru_`, `arm_`, `en_` (English also owns the unprefixed field). */
export function variantPrefix(lng: Lng): string {
  return PREFIX[lng]
}

/** A picker bound to one language: `const pick = localizer('ru'); pick(item, 'title')`. */
export function localizer(lng: Lng) {
  return <T extends object, K extends keyof T & string>(record: T, field: K) =>
    pickLocalized(record, field, lng)
}

export type Pick = ReturnType<typeof localizer>
