/**
 * The floating back-to-top button (spec sections 2 and 9): hidden until the page is scrolled more
 * than 500 px, then scrolls to the top over exactly 500 ms, eased frame by frame, or at once when
 * the visitor prefers reduced motion. The server renders it hidden, so it never shows without
 * JavaScript, where it could not work.
 */
import { useEffect, useRef, useState } from 'react'

export type BackToTopProps = {
  /** Accessible name of the button, in the page's language ('Back to top'). */
  label: string
}

/** Spec section 9: shown past this scroll offset, and the scroll takes this long. */
export const SHOW_AFTER_PX = 500
export const SCROLL_MS = 500

/** The browser APIs used here; islands compile under the worker's tsconfig too, without the DOM lib. */
type Browser = {
  scrollY: number
  scrollTo(options: { top: number; behavior: 'instant' }): void
  matchMedia(query: string): { matches: boolean }
  requestAnimationFrame(callback: (now: number) => void): number
  cancelAnimationFrame(handle: number): void
  addEventListener(type: string, listener: () => void, options?: { passive: boolean }): void
  removeEventListener(type: string, listener: () => void): void
  document: {
    activeElement: unknown
    querySelector(selector: string): { focus(options: { preventScroll: boolean }): void } | null
  }
}
const browser = () => globalThis as unknown as Browser

const easeInOutCubic = (t: number) => (t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2)
/** Input that means the visitor takes over the scrolling. */
const INTERRUPTIONS = ['wheel', 'touchstart', 'keydown'] as const

/**
 * Scrolls the window to the top over SCROLL_MS, timed by the frames' own timestamps; stops early
 * when the visitor scrolls. Resolves once the scrolling ends. `html { scroll-behavior: smooth }`
 * would smooth each step again, so every step is 'instant'.
 */
function scrollToTop(): Promise<void> {
  const win = browser()
  if (win.matchMedia('(prefers-reduced-motion: reduce)').matches) {
    win.scrollTo({ top: 0, behavior: 'instant' })
    return Promise.resolve()
  }
  const from = win.scrollY
  return new Promise((resolve) => {
    let started: number | undefined
    let frame = 0
    const finish = () => {
      win.cancelAnimationFrame(frame)
      for (const type of INTERRUPTIONS) win.removeEventListener(type, finish)
      resolve()
    }
    const step = (now: number) => {
      started ??= now
      const progress = Math.min((now - started) / SCROLL_MS, 1)
      win.scrollTo({ top: Math.round(from * (1 - easeInOutCubic(progress))), behavior: 'instant' })
      if (progress < 1) frame = win.requestAnimationFrame(step)
      else finish()
    }
    for (const type of INTERRUPTIONS) win.addEventListener(type, finish, { passive: true })
    frame = win.requestAnimationFrame(step)
  })
}

export function BackToTop({ label }: BackToTopProps) {
  const [visible, setVisible] = useState(false)
  const button = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    const win = browser()
    const update = () => setVisible(win.scrollY > SHOW_AFTER_PX)
    update()
    win.addEventListener('scroll', update, { passive: true })
    return () => win.removeEventListener('scroll', update)
  }, [])

  async function goToTop() {
    await scrollToTop()
    // The button hides at the top; move focus to the start of the page rather than lose it.
    const win = browser()
    if (win.document.activeElement === button.current)
      win.document.querySelector('.navbar__brand')?.focus({ preventScroll: true })
  }

  return (
    <button
      ref={button}
      type="button"
      className="back-to-top"
      aria-label={label}
      hidden={!visible}
      onClick={() => void goToTop()}
    >
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d="M12 19V5M5 12l7-7 7 7"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.25"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  )
}
