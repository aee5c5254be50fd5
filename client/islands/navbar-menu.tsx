/**
 * The navbar's behaviour (spec section 2, "Navbar"): the collapse button that opens and closes the
 * page links on small screens, and the `is-sticky` class once the page is scrolled 50 px or more.
 * Both act on the server-rendered `<nav class="navbar">` around the island, which React does not
 * own, so the island changes its classes directly. Without JavaScript the stylesheet hides the
 * button and shows the links (`@media (scripting: none)` in src/styles/site.css).
 */
import { useEffect, useRef, useState } from 'react'

export type NavbarMenuProps = {
  /** Accessible name of the collapse button ('Menu'); its state is in aria-expanded. */
  label: string
  /** The id of the links list the button shows and hides. */
  controls: string
}

/** Spec section 9: the navbar turns sticky-styled from this scroll offset. */
export const STICKY_FROM_PX = 50

/** The browser APIs used here; islands compile under the worker's tsconfig too, without the DOM lib. */
type Node = {
  classList: { toggle(name: string, force: boolean): void }
  closest(selector: string): Node | null
  contains(node: unknown): boolean
  focus(): void
}
type Listener = (event: { key?: string; target?: unknown }) => void
type Browser = {
  scrollY: number
  document: { getElementById(id: string): Node | null }
  addEventListener(type: string, listener: Listener, options?: { passive: boolean }): void
  removeEventListener(type: string, listener: Listener): void
}
const browser = () => globalThis as unknown as Browser

export function NavbarMenu({ label, controls }: NavbarMenuProps) {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)

  const toggle = () => button.current as unknown as Node | null

  useEffect(() => {
    toggle()?.closest('.navbar')?.classList.toggle('is-open', open)
    if (!open) return
    // Escape on the button or in the opened links closes the menu and returns focus to the button.
    const links = browser().document.getElementById(controls)
    const closeOnEscape: Listener = ({ key, target }) => {
      if (key !== 'Escape' || !(target === toggle() || links?.contains(target))) return
      setOpen(false)
      toggle()?.focus()
    }
    browser().addEventListener('keydown', closeOnEscape)
    return () => browser().removeEventListener('keydown', closeOnEscape)
  }, [open, controls])

  useEffect(() => {
    const navbar = toggle()?.closest('.navbar')
    if (!navbar) return
    const markSticky = () =>
      navbar.classList.toggle('is-sticky', browser().scrollY >= STICKY_FROM_PX)
    markSticky()
    browser().addEventListener('scroll', markSticky, { passive: true })
    return () => browser().removeEventListener('scroll', markSticky)
  }, [])

  return (
    <button
      ref={button}
      type="button"
      className="navbar__toggle"
      aria-label={label}
      aria-expanded={open}
      aria-controls={controls}
      onClick={() => setOpen(!open)}
    >
      <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d={open ? 'M6 6l12 12M18 6L6 18' : 'M4 7h16M4 12h16M4 17h16'}
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        />
      </svg>
    </button>
  )
}
