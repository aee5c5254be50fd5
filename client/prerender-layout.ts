/**
 * A prerendered page lays itself out before the visitor opens it. Chromium runs no frames for a
 * page it prerenders, so without this the frame after the click does the page's style
 * recalculation and layout, the parts of <main> that content-visibility skips until Chromium knows
 * they are near the screen (src/styles/base/elements.css) included: 13–17 ms on this machine for
 * /en/about at 1280 px, before it can paint. While the page is still prerendering, every part is
 * rendered (`data-prerendered` on <html>) and the layout is read at once, then again once the
 * fonts are in, so that Chromium does that work in the background and the frame after the click
 * only paints. A visitor's pointer rests on a link for some 200 ms before the click, so this starts
 * as soon as the document is parsed, not after its load event.
 * A page that is not prerendered does nothing here.
 */
import type { PrerenderingDocument } from './when-idle'

export function layOutWhilePrerendering(): void {
  const page = document as PrerenderingDocument
  if (!page.prerendering) return
  document.documentElement.dataset.prerendered = 'true'
  const layOut = () => {
    if (page.prerendering) document.documentElement.getBoundingClientRect()
  }
  layOut()
  // The layout above asked for the fonts its text needs; lay out again in them once they are in.
  void document.fonts.ready.then(layOut)
}
