/**
 * One toast: icon, message and close button, and dragging it sideways by 80 % of its width
 * dismisses it (spec section 9). react-hot-toast has no dragging, so pointer events do it here,
 * moving the element directly rather than re-rendering on every pointer move.
 */
import { useEffect, useRef, type PointerEvent } from 'react'
import { resolveValue, toast, type Toast } from 'react-hot-toast/headless'

/** Spec section 9: the share of its width a toast must be dragged to be dismissed. */
export const DISMISS_DRAG_RATIO = 0.8

/** The browser APIs used here; the worker's tsconfig compiles this file too, without the DOM lib. */
type Draggable = {
  offsetWidth: number
  style: { transform: string; opacity: string }
  classList: { toggle(name: string, force: boolean): void }
  setPointerCapture(pointerId: number): void
}
type Target = { closest(selector: string): unknown }

type ToastItemProps = {
  item: Toast
  closeLabel: string
  /** Called with true while the toast is hovered or dragged, then false: the timers pause meanwhile. */
  onHold: (reason: string, held: boolean) => void
  /** Receives the element, so Alt+T can focus it. */
  itemRef: (element: unknown) => void
}

export function ToastItem({ item, closeLabel, onHold, itemRef }: ToastItemProps) {
  const drag = useRef<{ pointerId: number; startX: number; dx: number } | null>(null)
  const hover = `hover:${item.id}`
  const dragging = `drag:${item.id}`

  // A toast dismissed under the pointer never sees mouseleave: release its holds when it goes.
  useEffect(() => {
    const release = () => {
      onHold(hover, false)
      onHold(dragging, false)
    }
    if (!item.visible) release()
    return release
  }, [item.visible, hover, dragging, onHold])

  function onPointerDown(event: PointerEvent) {
    if (event.button !== 0 || (event.target as unknown as Target).closest('button')) return
    ;(event.currentTarget as unknown as Draggable).setPointerCapture(event.pointerId)
    drag.current = { pointerId: event.pointerId, startX: event.clientX, dx: 0 }
    onHold(dragging, true)
  }

  function onPointerMove(event: PointerEvent) {
    const current = drag.current
    if (!current || current.pointerId !== event.pointerId) return
    const element = event.currentTarget as unknown as Draggable
    current.dx = event.clientX - current.startX
    element.classList.toggle('is-dragging', true)
    element.style.transform = `translateX(${current.dx}px)`
    element.style.opacity = String(Math.max(0.2, 1 - Math.abs(current.dx) / element.offsetWidth))
  }

  function onPointerEnd(event: PointerEvent) {
    const current = drag.current
    if (!current || current.pointerId !== event.pointerId) return
    drag.current = null
    const element = event.currentTarget as unknown as Draggable
    element.classList.toggle('is-dragging', false)
    onHold(dragging, false)
    if (
      event.type === 'pointerup' &&
      Math.abs(current.dx) >= DISMISS_DRAG_RATIO * element.offsetWidth
    ) {
      element.style.opacity = '0'
      toast.dismiss(item.id)
      return
    }
    element.style.transform = ''
    element.style.opacity = ''
  }

  return (
    <li
      ref={itemRef}
      className={`toast toast--${item.type}${item.visible ? '' : ' is-leaving'}`}
      aria-hidden={item.visible ? undefined : true}
      tabIndex={-1}
      onMouseEnter={() => item.visible && onHold(hover, true)}
      onMouseLeave={() => onHold(hover, false)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
    >
      <svg
        className="toast__icon"
        width="20"
        height="20"
        viewBox="0 0 24 24"
        aria-hidden="true"
        focusable="false"
      >
        <circle cx="12" cy="12" r="10" />
        <path d={item.type === 'error' ? 'M12 7v6M12 16.5v.5' : 'M7.5 12.5l3 3 6-6.5'} />
      </svg>
      <div className="toast__message">{resolveValue(item.message, item)}</div>
      <button
        type="button"
        className="toast__close"
        aria-label={closeLabel}
        onClick={() => toast.dismiss(item.id)}
      >
        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M6 6l12 12M18 6L6 18" />
        </svg>
      </button>
    </li>
  )
}
