/**
 * The one list of islands: name -> lazy loader. The name is the file's name in client/islands/,
 * which scripts/build-client.mjs builds as its own entry, so a page downloads only the islands it
 * renders. The server renders the same components through src/views/island.tsx.
 */
import type { ComponentProps } from 'react'

export const islandLoaders = {
  'back-to-top': () => import('./back-to-top').then((m) => m.BackToTop),
  carousel: () => import('./carousel').then((m) => m.Carousel),
  'contact-form': () => import('./contact-form').then((m) => m.ContactForm),
  'language-dropdown': () => import('./language-dropdown').then((m) => m.LanguageDropdown),
  'navbar-menu': () => import('./navbar-menu').then((m) => m.NavbarMenu),
}

export type IslandName = keyof typeof islandLoaders

/** The props an island takes: what the server serializes and the client reads back. */
export type IslandProps<N extends IslandName> = ComponentProps<Awaited<ReturnType<(typeof islandLoaders)[N]>>>

type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

// Fails to compile when an island takes props that JSON cannot carry (functions, Dates, Maps).
null satisfies { [N in IslandName]: IslandProps<N> } extends Record<IslandName, { [key: string]: Json }> ? null : never
