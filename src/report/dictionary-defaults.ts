/**
 * The fields whose slot the site fills from its own dictionary (src/shared/i18n) when the CMS leaves
 * them empty in every language: the views' `pick(...) || t(key)`. Such a field is not missing for
 * its visitors: the report names the text they read instead of calling it empty.
 */
import { getT, type TranslationKey } from '../shared/i18n'
import type { Lng } from '../shared/languages'

/** Per payload source, the field (its path with list indices as `[]`) and its dictionary key. */
const DEFAULTS: Record<string, Record<string, TranslationKey>> = {
  'get-home-page': {
    servicesTitle: 'ui.servicesTitle',
    enterprisesTitle: 'ui.enterprisesTitle',
    enterprisesSubTitle: 'ui.enterprisesSubtitle',
    foundersTitle: 'ui.foundersTitle',
  },
  'get-enterprises-page': { 'banner.titleBanner': 'ui.enterprisesTitle' },
  'contact-us': {
    titleContact: 'contact.title',
    contactFormTitle: 'contact.formTitle',
    nameLabel: 'contact.nameLabel',
    namePlaceholder: 'contact.namePlaceholder',
    emailLabel: 'contact.emailLabel',
    emailPlaceholder: 'contact.emailPlaceholder',
    messageLabel: 'contact.messageLabel',
    messagePlaceholder: 'contact.messagePlaceholder',
    sendButtonText: 'contact.send',
    sendingText: 'contact.sending',
    phoneTitle: 'contact.phone',
    emailTitle: 'contact.email',
    locationTitle: 'contact.location',
  },
  'navbar-data': {
    home: 'ui.home',
    about: 'ui.about',
    enterprises: 'ui.enterprises',
    contactUs: 'ui.contactUs',
  },
  'page-meta-data': { title: 'meta.siteName', description: 'meta.description' },
}

/**
 * The dictionary text visitors in `lng` read where `field` (`banner.titleBanner`) of `source`
 * (`get-enterprises-page`, `page-meta-data:/about`) is empty in every language, or null.
 */
export function dictionaryDefault(source: string, field: string, lng: Lng): string | null {
  const table = DEFAULTS[source.split(':')[0] ?? source]
  const key = table?.[field.replace(/\[\d+\]/g, '[]')]
  return key ? getT(lng)(key) : null
}
