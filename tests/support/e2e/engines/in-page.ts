/**
 * Checks that run inside the page, the same in every engine: each is a self-contained function
 * (no imports, no closures) that a driver sends to the browser as source text, whether it is
 * Playwright's `page.evaluate`, Puppeteer's or Selenium's `executeAsyncScript`
 * (see ./visitor.ts). Whatever a check needs is passed in as its one JSON argument.
 */

/** What counts as a short text that must not break inside a word: headings, card titles, buttons, labels, navigation links. */
export const SHORT_TEXTS =
  'h1, h2, h3, h4, h5, h6, button, label, legend, nav a, .button, .button-link'

/**
 * Every word of the short texts matched by `selector` that the browser laid out on more than one
 * line, with where it is: `"Ճարտարապետություն" in h3.service-card__title`. A word is a run of
 * characters between spaces and hyphens; its line boxes are its Range's client rects, and a rect
 * that starts below the middle of the previous one's line is on a new line. Hidden elements
 * (no box, or the visually-hidden 1-px clip) have no lines to break and are left out.
 */
export function wordsSplitAcrossLines(selector: string): string[] {
  const split: string[] = []
  const isShown = (element: Element) => {
    const box = element.getBoundingClientRect()
    if (box.width < 2 || box.height < 2) return false
    for (let at: Element | null = element; at; at = at.parentElement) {
      const style = getComputedStyle(at)
      if (
        style.visibility === 'hidden' ||
        style.display === 'none' ||
        style.clipPath.startsWith('inset(50%')
      )
        return false
    }
    return true
  }
  for (const element of document.querySelectorAll(selector)) {
    if (!isShown(element)) continue
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    for (
      let node = walker.nextNode() as Text | null;
      node;
      node = walker.nextNode() as Text | null
    ) {
      if (node.parentElement && !isShown(node.parentElement)) continue
      for (const match of node.data.matchAll(/[^\s\u00ad\-\u2010-\u2014/]+/gu)) {
        const range = document.createRange()
        range.setStart(node, match.index)
        range.setEnd(node, match.index + match[0].length)
        const rects = [...range.getClientRects()]
          .filter((rect) => rect.width > 0.5)
          .sort((a, b) => a.top - b.top)
        let lines = rects.length > 0 ? 1 : 0
        for (let index = 1; index < rects.length; index += 1) {
          const previous = rects[index - 1]!
          if (rects[index]!.top > previous.top + previous.height / 2) lines += 1
        }
        if (lines > 1) {
          const classes =
            typeof element.className === 'string' && element.className
              ? `.${element.className.trim().split(/\s+/).join('.')}`
              : ''
          split.push(`"${match[0]}" in ${element.tagName.toLowerCase()}${classes} (${lines} lines)`)
        }
      }
    }
  }
  return split
}

/**
 * Waits for the load event (a driver may hand the page back before it) and the fonts. The client
 * entry has run by then; an island hydrates on its own trigger, and a spec that needs one waits
 * for what it shows.
 */
export async function loadedWithFonts(): Promise<void> {
  if (document.readyState !== 'complete')
    await new Promise((resolve) => addEventListener('load', resolve, { once: true }))
  await document.fonts.ready
}

/**
 * Renders the parts of the page that `content-visibility: auto` skips away from the screen
 * (docs/decisions/0022-first-frame-layout.md), so that a full-page screenshot, which captures
 * beyond the screen without scrolling, shows the page as a visitor scrolling it sees it.
 */
export function renderSkippedParts(): void {
  for (const part of document.querySelectorAll<HTMLElement>('main > *'))
    part.style.contentVisibility = 'visible'
}

/** Two frames: whatever a resize or a scroll changed has been laid out and painted. */
export function nextFrames(): Promise<void> {
  return new Promise((resolve) =>
    requestAnimationFrame(() => requestAnimationFrame(() => resolve()))
  )
}

/** How far the page reaches past the right edge of the screen, in CSS px (0 or less: none). */
export function horizontalOverflow(): number {
  return document.documentElement.scrollWidth - document.documentElement.clientWidth
}

export type SeenImage = { src: string; className: string; naturalWidth: number; complete: boolean }

/**
 * Scrolls the page to the bottom a screen at a time, as a visitor reading it would, waiting at each
 * step (up to `stepMs`) for the images in view to finish, and no longer in all than `walkMs`; then
 * back to the top. Returns the images that were in view at some step (not a carousel's slides
 * clipped off to the side, nor hidden ones), with what they loaded. Same rules as
 * scripts/lib/image-audit.mjs, in the page itself.
 */
export async function scrollThroughImages({
  stepMs,
  walkMs,
}: {
  stepMs: number
  walkMs: number
}): Promise<SeenImage[]> {
  const seen = new Set<HTMLImageElement>()
  const inView = (image: HTMLImageElement) => {
    const box = image.getBoundingClientRect()
    if (
      box.width === 0 ||
      box.bottom <= 0 ||
      box.top >= innerHeight ||
      box.right <= 0 ||
      box.left >= innerWidth
    )
      return false
    // Clipped away by a scrolling ancestor (a carousel's track): not in view.
    for (let at = image.parentElement; at && at !== document.body; at = at.parentElement) {
      const style = getComputedStyle(at)
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue
      const clip = at.getBoundingClientRect()
      if (
        box.right <= clip.left ||
        box.left >= clip.right ||
        box.bottom <= clip.top ||
        box.top >= clip.bottom
      )
        return false
    }
    return true
  }
  // Every wait here is bounded, the whole walk too, so a frame or a decode that never comes (a page
  // the browser stopped painting) ends as the checks' named failure ("images still loading"), not
  // the test's time-out: once `walkMs` is spent, the steps left are only looked at.
  const atMost = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([promise, new Promise<void>((resolve) => setTimeout(resolve, ms))])
  const frames = () =>
    atMost(
      new Promise((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 30)))
      ),
      2_000
    )
  const walkDeadline = performance.now() + walkMs
  for (let top = 0; ;) {
    window.scrollTo({ top, behavior: 'instant' })
    await frames()
    const deadline = Math.min(performance.now() + stepMs, walkDeadline)
    let pending: HTMLImageElement[]
    do {
      pending = [...document.images].filter((image) => inView(image) && !image.complete)
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 100))
    } while (pending.length > 0 && performance.now() < deadline)
    for (const image of document.images) if (inView(image)) seen.add(image)
    if (scrollY + innerHeight >= document.documentElement.scrollHeight - 1) break
    top += Math.round(innerHeight * 0.8)
  }
  window.scrollTo({ top: 0, behavior: 'instant' })
  await frames()
  // Decoded, so that a screenshot taken next shows them.
  await atMost(Promise.all([...seen].map((image) => image.decode().catch(() => undefined))), 10_000)
  return [...seen].map((image) => ({
    src: image.currentSrc || image.src,
    className: image.className,
    naturalWidth: image.naturalWidth,
    complete: image.complete,
  }))
}

export type ImageBox = { key: string; x: number; y: number; width: number; height: number }

/**
 * Replaces every content image's picture with one of `shape` (a 1:3 'tall' or 3:1 'wide' PNG drawn
 * here, as a CMS upload of that shape would arrive) and returns every <img>'s box in the document
 * once they have all loaded. A box that follows its photo's shape differs between the two.
 */
export async function imageBoxesWithPhotos(shape: 'tall' | 'wide'): Promise<ImageBox[]> {
  const canvas = document.createElement('canvas')
  ;[canvas.width, canvas.height] = shape === 'tall' ? [300, 900] : [900, 300]
  const context = canvas.getContext('2d')!
  context.fillStyle = '#a64b25'
  context.fillRect(0, 0, canvas.width, canvas.height)
  const photo = canvas.toDataURL('image/png')
  const images = [...document.images]
  await Promise.all(
    images.map((image) => {
      if (image.getAttribute('src')?.endsWith('/logo.png')) return undefined
      image.loading = 'eager'
      image.removeAttribute('srcset')
      image.src = photo
      return image.decode().catch(() => undefined)
    })
  )
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
  const seen = new Map<string, number>()
  const round = (value: number) => Math.round(value * 10) / 10
  return images.map((image) => {
    const name = image.className || image.parentElement?.className || 'img'
    const count = (seen.get(name) ?? 0) + 1
    seen.set(name, count)
    const box = image.getBoundingClientRect()
    return {
      key: `${name} #${count}`,
      x: round(box.x + scrollX),
      y: round(box.y + scrollY),
      width: round(box.width),
      height: round(box.height),
    }
  })
}

/** Whether the first element matching `selector` is rendered (has a box and is not hidden). */
export function isShown(selector: string): boolean {
  const element = document.querySelector(selector)
  if (!element) return false
  const box = element.getBoundingClientRect()
  return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden'
}

/** `[attribute value or null, ...]` of the first element matching each `[selector, attribute]`. */
export function attributes(pairs: [string, string][]): (string | null)[] {
  return pairs.map(
    ([selector, name]) => document.querySelector(selector)?.getAttribute(name) ?? null
  )
}
