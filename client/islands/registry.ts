/**
 * The one list of islands: name -> lazy loader, and what makes it hydrate. The name is the file's
 * name in client/islands/, which scripts/build-client.mjs builds as its own entry, so a page
 * downloads only the islands it renders. The server renders the same components through
 * src/views/island.tsx.
 *
 * No island hydrates just because the page loaded: React costs a phone's main thread a long task
 * to evaluate, which a visitor who only reads never needs (docs/decisions/0021-islands-hydrate-on-intent.md).
 * An island hydrates on the first of its triggers (client/main.ts):
 * - `interaction`: the pointer comes over it, a touch or press starts on it, or focus enters it; a
 *   click on one of its buttons before hydration ends is replayed after;
 * - `scroll`: the page scrolls (or was already scrolled when the entry ran);
 * - `visible`: any of it is on screen.
 */
import type { ComponentProps } from 'react'

export type Trigger = 'interaction' | 'scroll' | 'visible'

export type Island = { load: () => Promise<unknown>; hydrate: readonly Trigger[] }

export const islands = {
  // Hidden until the page has scrolled 500 px.
  'back-to-top': {
    load: () => import('./back-to-top').then((m) => m.BackToTop),
    hydrate: ['scroll'],
  },
  // Below the fold on every screen, and the heaviest island (Swiper). A scroll-snap track until then.
  carousel: { load: () => import('./carousel').then((m) => m.Carousel), hydrate: ['visible'] },
  // On screen, a visitor may start typing at once; a submit before it hydrates is replayed.
  'contact-form': {
    load: () => import('./contact-form').then((m) => m.ContactForm),
    hydrate: ['visible', 'interaction'],
  },
  'language-dropdown': {
    load: () => import('./language-dropdown').then((m) => m.LanguageDropdown),
    hydrate: ['interaction'],
  },
  // Also marks the navbar sticky once the page scrolls.
  'navbar-menu': {
    load: () => import('./navbar-menu').then((m) => m.NavbarMenu),
    hydrate: ['interaction', 'scroll'],
  },
} as const

export type IslandName = keyof typeof islands

/** The props an island takes: what the server serializes and the client reads back. */
export type IslandProps<N extends IslandName> = ComponentProps<
  Awaited<ReturnType<(typeof islands)[N]['load']>>
>

type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

// Fails to compile when an island takes props that JSON cannot carry (functions, Dates, Maps).
null satisfies { [N in IslandName]: IslandProps<N> } extends Record<
  IslandName,
  { [key: string]: Json }
>
  ? null
  : never
