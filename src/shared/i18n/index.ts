/**
 * Bundled dictionaries and a typed `t()` per language, backed by i18next.
 * Armenian is the fallback: a key missing in another language shows the Armenian text.
 */
import i18next, { type i18n } from 'i18next'
import { DEFAULT_LNG, LANGUAGES, type Lng } from '../languages'
import { lazy } from '../lazy'
import { en, type Dictionary } from './en'
import { hy } from './hy'
import { ru } from './ru'

export type { Dictionary }
export const dictionaries: Record<Lng, Dictionary> = { en, ru, hy }

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>
}[keyof T & string]

/** Every translation key, such as 'contact.requiredName'. */
export type TranslationKey = Leaves<Dictionary>
export type Translate = (key: TranslationKey, values?: Record<string, string | number>) => string

/** The i18next instance, set up on the first translation (decision 0028). */
const instance = lazy((): i18n => {
  const created = i18next.createInstance()
  void created.init({
    resources: Object.fromEntries(
      LANGUAGES.map((lng) => [lng, { translation: dictionaries[lng] }])
    ),
    lng: DEFAULT_LNG,
    fallbackLng: DEFAULT_LNG,
    supportedLngs: [...LANGUAGES],
    initAsync: false,
    // React escapes on render; escaping here would double-encode quotes.
    interpolation: { escapeValue: false },
    returnNull: false,
  })
  return created
})

const translators = new Map<Lng, Translate>()

function translatorOf(lng: Lng): Translate {
  const fixed = instance().getFixedT(lng)
  // The dictionaries never change at run time: a text without values is looked up once.
  const plain = new Map<string, string>()
  return (key, values) => {
    if (values) return fixed(key, values) as string
    let text = plain.get(key)
    if (text === undefined) {
      text = fixed(key, {}) as string
      plain.set(key, text)
    }
    return text
  }
}

/** The translator for `lng`. */
export function getT(lng: Lng): Translate {
  let translate = translators.get(lng)
  if (!translate) {
    translate = translatorOf(lng)
    translators.set(lng, translate)
  }
  return translate
}
