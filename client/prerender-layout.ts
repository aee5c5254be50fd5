/**
 * A prerendered page lays itself out before the visitor opens it. Chromium runs no frames for a
 * page it prerenders, so without this the frame after the click does the page's whole style
 * recalculation and layout (20 ms on this machine for /en/about at 1280 px) before it can paint.
 * Once the page has loaded and its fonts are ready, while it is still prerendering, one read of
 * the layout makes Chromium do that work in the background; the frame after the click paints.
 * A page that is not prerendered does nothing here.
 */
import { afterLoad, type PrerenderingDocument } from './when-idle'

export function layOutWhilePrerendering(): void {
  const page = document as PrerenderingDocument
  if (!page.prerendering) return
  // Every part of <main> rendered (src/styles/base/elements.css), not only those near the screen,
  // which Chromium cannot know before it shows the page.
  document.documentElement.dataset.prerendered = 'true'
  void afterLoad()
    .then(() => document.fonts.ready)
    .then(() => {
      if (page.prerendering) document.documentElement.getBoundingClientRect()
    })
}
