/**
 * The one localized-field picker (spec section 3, "Localised fields").
 *
 * Russian reads `ru_<field>`, Armenian `arm_<field>`, English `en_<field>`; when that variant is
 * missing or empty the unprefixed field is the fallback, and a missing field gives '' or [].
 */
import type { Lng } from '../shared/languages'

const PREFIX: Record<Lng, string> = { en: 'en_', ru: 'ru_', hy: 'arm_' }

function isFilled(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== ''
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
  const fields = record as Record<string, unknown>
  const variant = fields[`${PREFIX[lng]}${field}`]
  if (isFilled(variant)) return variant as Picked<T, K>
  const fallback = fields[field]
  if (typeof fallback === 'string' || Array.isArray(fallback)) return fallback as Picked<T, K>
  return (Array.isArray(variant) ? [] : '') as Picked<T, K>
}

/** A picker bound to one language: `const pick = localizer('ru'); pick(item, 'title')`. */
export function localizer(lng: Lng) {
  return <T extends object, K extends keyof T & string>(record: T, field: K) =>
    pickLocalized(record, field, lng)
}

export type Pick = ReturnType<typeof localizer>
