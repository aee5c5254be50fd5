/**
 * Where on a page a gap is marked in preview: the section that shows its field. A field belongs to
 * the place of its first segment's name, without list index or language prefix
 * (`missions[1].ru_title` -> `missions`); a gap no place names (page meta data, a payload that
 * failed, an item without a page) is marked at the end of the page.
 */
import type { Gap } from '../../report'
import { SOCIAL_LINK_FIELDS } from '../../content/schemas'

/** The places of the pages, by payload source, and the first field names each shows. */
const PLACES: Record<string, Record<string, readonly string[]>> = {
  'get-home-page': {
    'home.hero': ['banner'],
    'home.about': ['aboutHome'],
    'home.services': ['servicesTitle', 'servicesSubTitle', 'servicesHome'],
    'home.enterprises': [
      'enterprisesTitle',
      'enterprisesSubTitle',
      'enterprisesBtnName',
      'enterprisesBtnLink',
      'enterprisesHome',
    ],
    'home.founders': ['foundersTitle', 'foundersBtnName', 'foundersBtnLink', 'foundersHome'],
  },
  'get-about-page': {
    'about.intro': ['firstBanner', 'title', 'description', 'titleDescSection'],
    'about.secondBanner': ['secondBanner'],
    'about.mission': ['titleMission', 'subTitleMission', 'descriptionMission', 'missions'],
    'about.partners': ['thirdImage', 'thirdBanner'],
  },
  'get-enterprises-page': {
    'enterprises.banner': ['banner'],
    'enterprises.list': ['enterprises'],
  },
  'contact-us': {
    'contact.banner': ['firstBanner', 'bannerDesc', 'titleContact'],
    'contact.form': [
      'secondBanner',
      'contactFormTitle',
      'nameLabel',
      'namePlaceholder',
      'emailLabel',
      'emailPlaceholder',
      'messageLabel',
      'messagePlaceholder',
      'sendingText',
      'sendButtonText',
    ],
    'contact.info': [
      'phoneNumber',
      'phoneTitle',
      'contactEmail',
      'emailTitle',
      'address',
      'locationTitle',
      'description',
      ...SOCIAL_LINK_FIELDS,
    ],
  },
  'navbar-data': { navbar: ['home', 'about', 'enterprises', 'contactUs'] },
}

/** A place's name: 'about.mission'. */
export type GapPlace = string

/** The place a gap is marked at, or null: at the end of the page. */
export function placeOf(gap: Pick<Gap, 'page' | 'source' | 'field'>): GapPlace | null {
  const first = (gap.field.split('.')[0] ?? '').replace(/\[.*$/, '').replace(/^(en|ru|arm)_/, '')
  // A project page shows one enterprise item: all of its gaps are the project's.
  if (gap.source === 'get-enterprises-page' && gap.page.startsWith('/enterprises/'))
    return first === 'enterprises' ? 'project' : null
  const places = PLACES[gap.source] ?? {}
  for (const [place, fields] of Object.entries(places)) if (fields.includes(first)) return place
  return null
}
