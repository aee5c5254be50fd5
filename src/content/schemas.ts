/**
 * Forgiving payload schemas for the backend's answers (spec section 3, payload-fields.md).
 *
 * The envelope is strict: an answer without an object `payload` is a failure. Inside it every field
 * is forgiving, as the spec asks: a missing or mistyped text becomes '', a list becomes [], an
 * object becomes an object of empty fields, and list entries that are not objects are dropped.
 * Each text field is also read in its `ru_`, `arm_` and `en_` variants (see localize.ts).
 */
import { z } from 'zod'

const text = z.string().catch('')

/** A text field with its localized variants: title, en_title, ru_title, arm_title. */
type Localized<K extends string> = { [P in K | `${'en' | 'ru' | 'arm'}_${K}`]: typeof text }

function localized<const K extends string>(...fields: K[]): Localized<K> {
  const shape: Record<string, typeof text> = {}
  for (const field of fields) {
    for (const prefix of ['', 'en_', 'ru_', 'arm_']) shape[`${prefix}${field}`] = text
  }
  return shape as Localized<K>
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** An object field: anything that is not an object reads as {}, so every field falls back. */
function objectOf<S extends z.ZodRawShape>(shape: S) {
  return z.preprocess((value) => (isRecord(value) ? value : {}), z.object(shape))
}

/** A list field: anything that is not an array reads as []; entries that are not objects are dropped. */
function listOf<S extends z.ZodRawShape>(shape: S) {
  const item = z.object(shape)
  return z.preprocess(
    (value) => (Array.isArray(value) ? value.filter(isRecord) : []),
    z.array(item),
  )
}

const id = z.union([z.string(), z.number()]).catch('')

const bannerItem = { img: text, ...localized('title', 'description', 'btnName'), btnLink: text }
const enterpriseItem = {
  id,
  img: text,
  icon: text,
  iconLink: text,
  ...localized('title', 'description', 'btnName'),
  btnLink: text,
}
const imageBanner = { img: text, ...localized('titleBanner', 'description') }

export const HomePageSchema = objectOf({
  banner: listOf(bannerItem),
  ru_banner: listOf(bannerItem),
  arm_banner: listOf(bannerItem),
  aboutHome: objectOf(bannerItem),
  ...localized('servicesTitle', 'servicesSubTitle'),
  servicesHome: listOf({ img: text, ...localized('title', 'description') }),
  ...localized('enterprisesTitle', 'enterprisesSubTitle', 'enterprisesBtnName'),
  enterprisesBtnLink: text,
  enterprisesHome: listOf(enterpriseItem),
  ...localized('foundersTitle', 'foundersBtnName'),
  foundersBtnLink: text,
  foundersHome: listOf({ id, img: text, ...localized('title') }),
})

export const AboutPageSchema = objectOf({
  ...localized('title', 'description', 'titleMission', 'subTitleMission', 'descriptionMission'),
  titleDescSection: objectOf({ img: text, ...localized('description') }),
  firstBanner: objectOf(imageBanner),
  secondBanner: objectOf({ img: text }),
  missions: listOf({ id, img: text, ...localized('title', 'description') }),
  thirdImage: objectOf({ img: text, ...localized('description') }),
  thirdBanner: listOf({ id, img: text, imgLink: text, ...localized('title') }),
})

export const EnterprisesPageSchema = objectOf({
  banner: objectOf(imageBanner),
  enterprises: listOf(enterpriseItem),
})

export const ContactDataSchema = objectOf({
  phoneNumber: text,
  contactEmail: text,
  ...localized('phoneTitle', 'emailTitle', 'address', 'locationTitle', 'description'),
  facebook: text,
  instagram: text,
  linkedin: text,
  twitter: text,
  youtube: text,
  pinterest: text,
  tiktok: text,
  firstBanner: text,
  secondBanner: text,
  ...localized(
    'bannerDesc',
    'titleContact',
    'contactFormTitle',
    'nameLabel',
    'namePlaceholder',
    'emailLabel',
    'emailPlaceholder',
    'messageLabel',
    'messagePlaceholder',
    'sendingText',
    'sendButtonText',
  ),
})

export const NavbarSchema = objectOf({ ...localized('home', 'about', 'enterprises', 'contactUs') })

export const PageMetaSchema = objectOf({ ...localized('title', 'description', 'keywords'), image: text })

/** The answer envelope: `{ payload: {...} }`; anything else is a malformed answer. */
export const EnvelopeSchema = z.object({
  payload: z.custom<Record<string, unknown>>(isRecord, 'payload must be an object'),
})

export type HomePage = z.infer<typeof HomePageSchema>
export type AboutPage = z.infer<typeof AboutPageSchema>
export type EnterprisesPage = z.infer<typeof EnterprisesPageSchema>
export type ContactData = z.infer<typeof ContactDataSchema>
export type Navbar = z.infer<typeof NavbarSchema>
export type PageMeta = z.infer<typeof PageMetaSchema>
export type EnterpriseItem = HomePage['enterprisesHome'][number]
export type BannerItem = HomePage['banner'][number]
