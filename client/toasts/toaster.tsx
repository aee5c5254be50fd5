/**
 * The site's one toaster (spec sections 2 and 9): top right, each toast closes after 5 s; the
 * timers pause while a toast is hovered or dragged, while the window has no focus and while focus
 * is in the toasts. Alt+T focuses the newest toast, Escape gives focus back and the timers resume.
 * Screen readers hear each message from a live region that is always in the page.
 *
 * Islands that show toasts render <Toaster> and call `toast` from here. It is react-hot-toast's
 * headless store with markup of our own, not the library's <Toaster>: the site's CSP would allow its
 * inline styles (style-src 'unsafe-inline'), but its CSS-in-JS (goober), keyframes and components
 * add 3.3 KB gzip to the store's 2.3 KB (esbuild, minified, React external; this file and
 * ./toast-item.tsx with the store are 3.7 KB), and it lacks the spec's toast features: no
 * drag-to-dismiss at 80 %, no Alt+T and Escape, no pause while the window or the toasts have focus,
 * no live region that is in the page before the first toast.
 */
import './toaster.css'
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
} from 'react'
import { resolveValue, toast, useToaster } from 'react-hot-toast/headless'
import { ToastItem } from './toast-item'

export { toast }

/** Spec section 9. */
export const TOAST_MS = 5000

export type ToasterProps = {
  /** Name of the notifications region, in the page's language ('Notifications'). */
  label: string
  /** Accessible name of each toast's close button ('Close'). */
  closeLabel: string
}

/** The browser APIs used here; the worker's tsconfig compiles this file too, without the DOM lib. */
type Focusable = { focus(): void; isConnected?: boolean }
type Container = { contains(node: unknown): boolean }
type Key = {
  key: string
  code: string
  altKey: boolean
  ctrlKey: boolean
  metaKey: boolean
  preventDefault(): void
}
type Browser = {
  document: { activeElement: { blur?(): void } | null }
  addEventListener(type: string, listener: (event: Key) => void): void
  removeEventListener(type: string, listener: (event: Key) => void): void
}
const browser = () => globalThis as unknown as Browser

export function Toaster({ label, closeLabel }: ToasterProps) {
  const { toasts, handlers } = useToaster({ duration: TOAST_MS })
  const [holds, setHolds] = useState<string[]>([])
  const elements = useRef(new Map<string, Focusable>())
  const region = useRef<HTMLElement>(null)
  const returnFocusTo = useRef<Focusable | null>(null)
  const newest = toasts.find((item) => item.visible)
  const within = (node: unknown) =>
    (region.current as unknown as Container | null)?.contains(node) ?? false

  const hold = useCallback((reason: string, held: boolean) => {
    setHolds((current) =>
      held === current.includes(reason)
        ? current
        : held
          ? [...current, reason]
          : current.filter((r) => r !== reason)
    )
  }, [])

  // react-hot-toast keeps one pause for all toasts: start it when the first hold comes, end it with the last.
  const paused = holds.length > 0
  useEffect(() => {
    if (paused) handlers.startPause()
    else handlers.endPause()
  }, [paused])

  const newestId = newest?.id
  useEffect(() => {
    const win = browser()
    // A toast removed while it had focus takes the focus with it, without a blur event.
    if (!within(win.document.activeElement)) hold('focus', false)
    const onBlur = () => hold('window', true)
    const onFocus = () => hold('window', false)
    const onKeyDown = (event: Key) => {
      if (!event.altKey || event.ctrlKey || event.metaKey || event.code !== 'KeyT' || !newestId)
        return
      event.preventDefault()
      returnFocusTo.current = win.document.activeElement as Focusable | null
      elements.current.get(newestId)?.focus()
    }
    win.addEventListener('blur', onBlur)
    win.addEventListener('focus', onFocus)
    win.addEventListener('keydown', onKeyDown)
    return () => {
      win.removeEventListener('blur', onBlur)
      win.removeEventListener('focus', onFocus)
      win.removeEventListener('keydown', onKeyDown)
    }
  }, [hold, newestId])

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape') return
    const back = returnFocusTo.current
    returnFocusTo.current = null
    browser().document.activeElement?.blur?.()
    if (back?.isConnected) back.focus()
  }

  function onBlur(event: FocusEvent) {
    if (!within(event.relatedTarget)) hold('focus', false)
  }

  return (
    <section
      ref={region}
      className="toaster"
      aria-label={`${label} (Alt+T)`}
      onKeyDown={onKeyDown}
      onFocus={() => hold('focus', true)}
      onBlur={onBlur}
    >
      <ol className="toaster__list">
        {toasts.map((item) => (
          <ToastItem
            key={item.id}
            item={item}
            closeLabel={closeLabel}
            onHold={hold}
            itemRef={(element) => {
              if (element) elements.current.set(item.id, element as Focusable)
              else elements.current.delete(item.id)
            }}
          />
        ))}
      </ol>
      {/* Always present, so a new message is announced; keyed, so a repeated one is announced again. */}
      <p className="toaster__announcer" role="status">
        {newest && newest.type !== 'error' ? (
          <span key={newest.id}>{resolveValue(newest.message, newest)}</span>
        ) : null}
      </p>
      <p className="toaster__announcer" role="alert">
        {newest?.type === 'error' ? (
          <span key={newest.id}>{resolveValue(newest.message, newest)}</span>
        ) : null}
      </p>
    </section>
  )
}
