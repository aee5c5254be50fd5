/**
 * The language offer (src/views/layout/language-offer.tsx): the server renders one hidden offer
 * for each language the page is not in; this shows the one in the visitor's preferred language:
 * 1. the language they chose earlier (client/language-choice.ts);
 * 2. else the first of the browser's languages that the site has, in any region (ru-RU, en-GB).
 * Nothing shows when that is the page's language, when none matches, or once the visitor has
 * closed the offer. It never redirects (docs/decisions/0044-a-language-offered-never-pushed.md).
 *
 * It runs in the entry, before the islands are armed: no request, no React. The offer is fixed to
 * the bottom of the screen and the space it takes is added below the footer, so showing or hiding
 * it at any time moves nothing on the page. A prerendered page decides again when it is shown, and
 * a page restored from the back/forward cache when it is restored: the visitor may have closed the
 * offer or chosen a language on another page in between.
 */
import {
  isLanguageOfferClosed,
  readLanguageChoice,
  rememberLanguageChoices,
  storeLanguageOfferClosed,
} from './language-choice'

/** On <html> while an offer shows: the stylesheet reserves its room below the footer. */
const OFFERED = 'data-language-offered'

/** Closed on this page: holds here even where the browser refuses to store it. */
let closedHere = false

/** The visitor's preferred language among `available` (the page's and those offered). */
function preferredLanguage(available: readonly string[]): string | undefined {
  const chosen = readLanguageChoice()
  if (chosen && available.includes(chosen)) return chosen
  const browserLanguages = navigator.languages?.length ? navigator.languages : [navigator.language]
  return browserLanguages
    .map((tag) => tag.split('-')[0]!.toLowerCase())
    .find((lng) => available.includes(lng))
}

function showPreferredOffer(offers: HTMLElement[]): void {
  const root = document.documentElement
  const preferred =
    closedHere || isLanguageOfferClosed()
      ? undefined
      : preferredLanguage([root.lang, ...offers.map((offer) => offer.lang)])
  for (const offer of offers) {
    offer.hidden = offer.lang !== preferred
    const link = offer.querySelector('a')
    // The same page in that language, with the address's query and hash as they are now.
    if (link && !offer.hidden)
      link.setAttribute('href', link.pathname + location.search + location.hash)
  }
  root.toggleAttribute(
    OFFERED,
    offers.some((offer) => !offer.hidden)
  )
}

export function offerPreferredLanguage(): void {
  rememberLanguageChoices()
  const offers = [...document.querySelectorAll<HTMLElement>('[data-language-offer]')]
  if (offers.length === 0) return
  const update = () => showPreferredOffer(offers)
  for (const offer of offers) {
    offer.querySelector('button')?.addEventListener('click', () => {
      closedHere = true
      storeLanguageOfferClosed()
      update()
    })
  }
  update()
  document.addEventListener('prerenderingchange', update)
  addEventListener('pageshow', (event) => event.persisted && update())
  addEventListener('hashchange', update)
  // Closed, or a language chosen, in another tab of the site.
  addEventListener('storage', update)
}
