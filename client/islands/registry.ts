/**
 * The one list of islands: name -> lazy loader, and when it hydrates. The name is the file's name
 * in client/islands/, which scripts/build-client.mjs builds as its own entry, so a page downloads
 * only the islands it renders. The server renders the same components through src/views/island.tsx.
 *
 * Every island hydrates after the load event when the main thread is idle (client/main.ts);
 * `hydrate: 'visible'` waits, beyond that, until the island nears the viewport.
 */
import type { ComponentProps } from 'react'

export type Island = { load: () => Promise<unknown>; hydrate?: 'visible' }

export const islands = {
  'back-to-top': { load: () => import('./back-to-top').then((m) => m.BackToTop) },
  // Below the fold on every screen, and the heaviest island (Swiper).
  carousel: { load: () => import('./carousel').then((m) => m.Carousel), hydrate: 'visible' },
  'contact-form': { load: () => import('./contact-form').then((m) => m.ContactForm) },
  'language-dropdown': {
    load: () => import('./language-dropdown').then((m) => m.LanguageDropdown),
  },
  'navbar-menu': { load: () => import('./navbar-menu').then((m) => m.NavbarMenu) },
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
