/**
 * What the browser keeps of a visitor's languages, in localStorage: the language they chose
 * (`selectedLanguage`, spec section 4) and whether they closed the language offer for good.
 *
 * A choice is a click on any language link of the page: an entry of the navbar's language
 * dropdown (hydrated or not: its links are real links) or the language offer's link. Every such
 * link names its language in `hreflang`. Storage may be refused (disabled, full): then nothing is
 * kept and nothing fails.
 */

/** The visitor's chosen language (spec section 4). */
const CHOICE_KEY = 'selectedLanguage'
/** Set once the visitor closes the language offer: it stays closed on every page and visit. */
const OFFER_CLOSED_KEY = 'languageOfferClosed'

function read(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value)
  } catch (error) {
    console.info(`could not store ${key}`, error)
  }
}

/** The language the visitor chose earlier, as stored (checked by the caller), or null. */
export function readLanguageChoice(): string | null {
  return read(CHOICE_KEY)
}

export function isLanguageOfferClosed(): boolean {
  return read(OFFER_CLOSED_KEY) !== null
}

export function storeLanguageOfferClosed(): void {
  write(OFFER_CLOSED_KEY, '1')
}

/** Stores the language of every language link the visitor follows, from now on. */
export function rememberLanguageChoices(): void {
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[hreflang]') : null
    if (link instanceof HTMLAnchorElement && link.hreflang) write(CHOICE_KEY, link.hreflang)
  })
}
