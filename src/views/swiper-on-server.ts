/**
 * What the worker bundle has in place of `swiper` and `swiper/modules` (wrangler.toml `alias`).
 * The server renders the carousel island (client/islands/carousel.tsx) but never runs its effect,
 * the one place Swiper is used, so a new isolate does not evaluate Swiper's modules at all
 * (docs/decisions/0033-names-not-kept-modules-loaded-on-first-use.md). The browser bundle has the real Swiper.
 */
export class Swiper {
  constructor() {
    throw new Error('Swiper runs only in the browser: the worker renders the carousel without it')
  }
}

/** The carousel hands this module to Swiper, which the server never constructs. */
export const Autoplay = () => {}
