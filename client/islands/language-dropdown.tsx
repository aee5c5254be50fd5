/**
 * The navbar's language dropdown (spec section 4, "Language change via dropdown"). The server
 * renders real links, so it works without JavaScript; hydrated, it toggles, closes on Escape or when
 * focus leaves it, and switches language keeping the current path, query and hash. The choice is
 * stored by the client entry, which hears every click on a language link, hydrated or not
 * (client/language-choice.ts).
 */
import { useRef, useState, type FocusEvent, type KeyboardEvent, type MouseEvent } from 'react'
import { switchLanguagePath, type Lng } from '../../src/shared/languages'

export type LanguageDropdownProps = {
  /** The page's language, shown on the button. */
  current: Lng
  /** Accessible name of the control, in the page's language ('Language'). */
  label: string
  /** One link per language; `href` is the current page in that language. */
  entries: { lng: Lng; name: string; href: string }[]
}

/**
 * The browser APIs used here. Islands also compile under the worker's tsconfig, which has no DOM
 * lib, because the server renders them; they touch the browser only in event handlers.
 */
type Browser = {
  location: { pathname: string; search: string; hash: string; replace(url: string): void }
}
type Focusable = { focus(): void }
type Container = { contains(node: unknown): boolean }

export function LanguageDropdown({ current, label, entries }: LanguageDropdownProps) {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const currentName = entries.find((entry) => entry.lng === current)?.name ?? current

  function closeOnEscape(event: KeyboardEvent) {
    if (event.key !== 'Escape' || !open) return
    setOpen(false)
    ;(button.current as Focusable | null)?.focus()
  }

  function closeOnFocusOut(event: FocusEvent) {
    if (!(event.currentTarget as unknown as Container).contains(event.relatedTarget)) setOpen(false)
  }

  function choose(event: MouseEvent, lng: Lng) {
    // Modified clicks (new tab, new window) keep the plain link.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return
    event.preventDefault()
    setOpen(false)
    const browser = globalThis as unknown as Browser
    try {
      const { pathname, search, hash } = browser.location
      browser.location.replace(switchLanguagePath(pathname + search + hash, lng))
    } catch (error) {
      console.info('language change failed', error)
    }
  }

  return (
    <div
      className={open ? 'lang-dropdown is-open' : 'lang-dropdown'}
      onKeyDown={closeOnEscape}
      onBlur={closeOnFocusOut}
    >
      <button
        ref={button}
        type="button"
        className="lang-dropdown__button"
        aria-expanded={open}
        aria-label={`${label}: ${currentName}`}
        onClick={() => setOpen(!open)}
      >
        {currentName}
      </button>
      <ul className="lang-dropdown__menu">
        {entries.map(({ lng, name, href }) => (
          <li key={lng}>
            <a
              className="lang-dropdown__link"
              href={href}
              hrefLang={lng}
              lang={lng}
              aria-current={lng === current ? 'true' : undefined}
              onClick={(event) => choose(event, lng)}
            >
              {name}
            </a>
          </li>
        ))}
      </ul>
    </div>
  )
}
