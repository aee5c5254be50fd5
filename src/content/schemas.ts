/**
 * Forgiving payload schemas for the backend's answers (spec section 3, payload-fields.md).
 *
 * The envelope is strict: an answer without an object `payload` is a failure. Inside it every field
 * is forgiving, as the spec asks: a missing or mistyped text becomes '', a list becomes [], an
 * object becomes an object of empty fields, and list entries that are not objects are dropped.
 * Each text field is also read in its `ru_`, `arm_` and `en_` variants (see localize.ts).
 *
 * Hostile or careless content is made harmless here, once, when a payload is loaded:
 * every URL-valued field is parsed into a safe address or '' (addresses.ts), and every HTML field
 * is sanitized (sanitize-html.ts). What is cached in KV and rendered is this output: views only pick.
 * An address that was dropped is found by `findDroppedAddresses`, so the client can report it.
 *
 * Every schema is built on its first use (`z.lazy`, which keeps what it built), not at module scope:
 * a new isolate whose first page comes from the cache never builds one (decision 0028).
 */
import * as z from 'zod'
import { lazy } from '../shared/lazy'
import { parseAddress } from './addresses'
import { sanitizeHtml } from './sanitize-html'

export { PAYLOAD_SCHEMA_VERSION } from './payload-schema-version'

/** The fields every payload is made of, built together on first use. */
const fields = lazy(() => {
  const text = z.string().catch('')
  return {
    text,
    /** CMS HTML (descriptions): allow-listed and balanced; sanitizing it again gives the same. */
    html: z
      .string()
      .catch('')
      .transform((value) => sanitizeHtml(value)),
    /** An image address: absolute http(s) or site-relative, else ''. */
    imageAddress: text.transform((value) => parseAddress(value, 'image')),
    /** A link address: absolute http(s), site-relative, mailto: or tel:, else ''. */
    linkAddress: text.transform((value) => parseAddress(value, 'link')),
    id: z.union([z.string(), z.number()]).catch(''),
  }
})

/** A field with its localized variants: title, en_title, ru_title, arm_title. */
type Localized<K extends string, S> = { [P in K | `${'en' | 'ru' | 'arm'}_${K}`]: S }

function variantsOf<S extends z.ZodType, const K extends string>(
  schema: S,
  names: K[]
): Localized<K, S> {
  const shape: Record<string, S> = {}
  for (const name of names) {
    for (const prefix of ['', 'en_', 'ru_', 'arm_']) shape[`${prefix}${name}`] = schema
  }
  return shape as Localized<K, S>
}

/** Plain text fields with their localized variants. */
function localized<const K extends string>(...names: K[]) {
  return variantsOf(fields().text, names)
}

/** HTML fields with their localized variants, sanitized. */
function localizedHtml<const K extends string>(...names: K[]) {
  return variantsOf(fields().html, names)
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
    z.array(item)
  )
}

/** The items several payloads list, built together on first use. */
const items = lazy(() => {
  const { id, imageAddress, linkAddress } = fields()
  return {
    bannerItem: {
      img: imageAddress,
      ...localized('title', 'btnName'),
      ...localizedHtml('description'),
      btnLink: linkAddress,
    },
    enterpriseItem: {
      id,
      img: imageAddress,
      icon: imageAddress,
      iconLink: linkAddress,
      ...localized('title', 'btnName'),
      ...localizedHtml('description'),
      btnLink: linkAddress,
    },
    imageBanner: {
      img: imageAddress,
      ...localized('titleBanner'),
      ...localizedHtml('description'),
    },
  }
})

export const HomePayloadSchema = z.lazy(() => {
  const { id, imageAddress, linkAddress } = fields()
  const { bannerItem, enterpriseItem } = items()
  return objectOf({
    banner: listOf(bannerItem),
    ru_banner: listOf(bannerItem),
    arm_banner: listOf(bannerItem),
    aboutHome: objectOf(bannerItem),
    ...localized('servicesTitle', 'servicesSubTitle'),
    servicesHome: listOf({
      img: imageAddress,
      ...localized('title'),
      ...localizedHtml('description'),
    }),
    ...localized('enterprisesTitle', 'enterprisesSubTitle', 'enterprisesBtnName'),
    enterprisesBtnLink: linkAddress,
    enterprisesHome: listOf(enterpriseItem),
    ...localized('foundersTitle', 'foundersBtnName'),
    foundersBtnLink: linkAddress,
    foundersHome: listOf({ id, img: imageAddress, ...localized('title') }),
  })
})

export const AboutPayloadSchema = z.lazy(() => {
  const { id, imageAddress, linkAddress } = fields()
  return objectOf({
    ...localized('title', 'titleMission', 'subTitleMission'),
    ...localizedHtml('description', 'descriptionMission'),
    titleDescSection: objectOf({ img: imageAddress, ...localizedHtml('description') }),
    firstBanner: objectOf(items().imageBanner),
    secondBanner: objectOf({ img: imageAddress }),
    missions: listOf({
      id,
      img: imageAddress,
      ...localized('title'),
      ...localizedHtml('description'),
    }),
    thirdImage: objectOf({ img: imageAddress, ...localizedHtml('description') }),
    thirdBanner: listOf({ id, img: imageAddress, imgLink: linkAddress, ...localized('title') }),
  })
})

export const EnterprisesPayloadSchema = z.lazy(() =>
  objectOf({
    banner: objectOf(items().imageBanner),
    enterprises: listOf(items().enterpriseItem),
  })
)

export const ContactDataSchema = z.lazy(() => {
  const { text, imageAddress, linkAddress } = fields()
  return objectOf({
    phoneNumber: text,
    contactEmail: text,
    ...localized('phoneTitle', 'emailTitle', 'address', 'locationTitle'),
    ...localizedHtml('description', 'bannerDesc'),
    facebook: linkAddress,
    instagram: linkAddress,
    linkedin: linkAddress,
    twitter: linkAddress,
    youtube: linkAddress,
    pinterest: linkAddress,
    tiktok: linkAddress,
    firstBanner: imageAddress,
    secondBanner: imageAddress,
    ...localized(
      'titleContact',
      'contactFormTitle',
      'nameLabel',
      'namePlaceholder',
      'emailLabel',
      'emailPlaceholder',
      'messageLabel',
      'messagePlaceholder',
      'sendingText',
      'sendButtonText'
    ),
  })
})

export const NavbarPayloadSchema = z.lazy(() =>
  objectOf({
    ...localized('home', 'about', 'enterprises', 'contactUs'),
  })
)

export const PageMetaSchema = z.lazy(() =>
  objectOf({
    ...localized('title', 'description', 'keywords'),
    image: fields().imageAddress,
  })
)

/** The contact payload's social links (payload-fields.md), each an address or empty. */
export const SOCIAL_LINK_FIELDS = [
  'facebook',
  'instagram',
  'linkedin',
  'twitter',
  'youtube',
  'pinterest',
  'tiktok',
] as const

/** Every URL-valued field name, in any payload (payload-fields.md). */
export const ADDRESS_FIELDS: ReadonlySet<string> = new Set([
  'img',
  'icon',
  'iconLink',
  'btnLink',
  'imgLink',
  'image',
  'firstBanner',
  'secondBanner',
  'enterprisesBtnLink',
  'foundersBtnLink',
  ...SOCIAL_LINK_FIELDS,
])

/** The URL-valued fields that hold images (the others are links). */
export const IMAGE_FIELDS: ReadonlySet<string> = new Set([
  'img',
  'icon',
  'image',
  'firstBanner',
  'secondBanner',
])

/** Every HTML field name (sanitized, see `localizedHtml` above). */
export const HTML_FIELDS: ReadonlySet<string> = new Set([
  'description',
  'descriptionMission',
  'bannerDesc',
])

/**
 * The paths (`enterprisesHome[2].btnLink`) of the URL fields that held a value in `raw` but were
 * dropped by the parse into `parsed`. Walks both as the schemas do: non-object list entries of
 * `raw` are skipped, so list indices match the parsed lists.
 */
export function findDroppedAddresses(raw: unknown, parsed: unknown, path = ''): string[] {
  if (Array.isArray(parsed)) {
    const entries = Array.isArray(raw) ? raw.filter(isRecord) : []
    return parsed.flatMap((item, index) =>
      findDroppedAddresses(entries[index], item, `${path}[${index}]`)
    )
  }
  if (!isRecord(parsed)) return []
  const source = isRecord(raw) ? raw : {}
  return Object.entries(parsed).flatMap(([key, value]) => {
    const at = path ? `${path}.${key}` : key
    if (typeof value === 'string') {
      const given = source[key]
      const wasFilled =
        typeof given === 'string' ? given.trim() !== '' : given !== undefined && given !== null
      return ADDRESS_FIELDS.has(key) && value === '' && wasFilled ? [at] : []
    }
    return findDroppedAddresses(source[key], value, at)
  })
}

/** The answer envelope: `{ payload: {...} }`; anything else is a malformed answer. */
export const EnvelopeSchema = z.lazy(() =>
  z.object({
    payload: z.custom<Record<string, unknown>>(isRecord, 'payload must be an object'),
  })
)

export type HomePayload = z.infer<typeof HomePayloadSchema>
export type AboutPayload = z.infer<typeof AboutPayloadSchema>
export type EnterprisesPayload = z.infer<typeof EnterprisesPayloadSchema>
export type ContactData = z.infer<typeof ContactDataSchema>
export type NavbarPayload = z.infer<typeof NavbarPayloadSchema>
export type PageMeta = z.infer<typeof PageMetaSchema>
export type EnterpriseItem = HomePayload['enterprisesHome'][number]
export type BannerItem = HomePayload['banner'][number]
