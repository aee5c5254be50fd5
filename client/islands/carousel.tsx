/**
 * The home page's enterprises carousel (spec sections 2 and 9): Swiper, 1 slide per view on phones,
 * 2 from 768 px, 3 from 1024 px; loops; autoplays every 5000 ms unless the visitor prefers reduced
 * motion; arrows on desktop only.
 *
 * The server renders the slides as a scroll-snap list (src/views/components/enterprise-carousel.tsx)
 * with this island inside it. The island renders only the controls, hidden until Swiper runs, and
 * in an effect hands the server's list to Swiper, adding Swiper's classes there. So the first
 * render equals the server's whatever the viewport, and React never owns the slides Swiper moves
 * around to loop. The list's column widths and gaps in src/styles/site.css equal the ones below,
 * so the takeover moves nothing.
 */
import 'swiper/css'
import './carousel.css'
import { useEffect, useRef, useState } from 'react'
import { Swiper } from 'swiper'
import { Autoplay } from 'swiper/modules'

export type CarouselProps = {
  /** Accessible names of the controls, in the page's language. */
  previousLabel: string
  nextLabel: string
  pauseLabel: string
  playLabel: string
}

/** Spec section 9. */
export const AUTOPLAY_MS = 5000

/**
 * Spec section 9: 1 slide per view, 2 from 768 px, 3 from 1024 px. In rem, as the stylesheet's
 * columns are (48em, 64em; gaps 1.25rem, then 1.5rem), so both agree at any default font size.
 */
function layout(rem: number) {
  return {
    slidesPerView: 1,
    spaceBetween: 1.25 * rem,
    breakpoints: {
      [48 * rem]: { slidesPerView: 2, spaceBetween: 1.5 * rem },
      [64 * rem]: { slidesPerView: 3, spaceBetween: 1.5 * rem },
    },
  }
}

/** The browser APIs used here; islands compile under the worker's tsconfig too, without the DOM lib. */
type Dom = {
  classList: { add(...names: string[]): void; remove(...names: string[]): void }
  offsetHeight: number
  clientHeight: number
  style: { marginBottom: string }
  closest(selector: string): Dom | null
  querySelector(selector: string): Dom | null
  querySelectorAll(selector: string): Iterable<Dom>
  contains(node: unknown): boolean
  addEventListener(
    type: string,
    listener: (event: { target: unknown; relatedTarget?: unknown }) => void
  ): void
  scrollLeft: number
}
type Browser = {
  matchMedia(query: string): { matches: boolean }
  requestAnimationFrame(callback: () => void): number
  getComputedStyle(element: unknown): { fontSize: string }
  document: { documentElement: unknown }
}
const browser = () => globalThis as unknown as Browser

/** 'static': the server's list (and the first render); 'still': no autoplay (reduced motion). */
type Mode = 'static' | 'playing' | 'paused' | 'still'

export function Carousel({ previousLabel, nextLabel, pauseLabel, playLabel }: CarouselProps) {
  const controls = useRef<HTMLDivElement>(null)
  const swiper = useRef<Swiper | null>(null)
  const [mode, setMode] = useState<Mode>('static')

  useEffect(() => {
    const root = (controls.current as unknown as Dom | null)?.closest('.carousel')
    const track = root?.querySelector('.carousel__track')
    if (!root || !track) return
    const slides = [...track.querySelectorAll('.carousel__slide')]
    // The scroll-snap list's scrollbar, if the browser gives it room, goes with the takeover: keep its height.
    const scrollbar = track.offsetHeight - track.clientHeight
    root.classList.add('swiper')
    track.classList.add('swiper-wrapper')
    for (const slide of slides) slide.classList.add('swiper-slide')
    if (scrollbar > 0) track.style.marginBottom = `${scrollbar}px`
    const win = browser()
    const still = win.matchMedia('(prefers-reduced-motion: reduce)').matches
    const rem = parseFloat(win.getComputedStyle(win.document.documentElement).fontSize) || 16
    const instance = new Swiper(root as unknown as HTMLElement, {
      modules: [Autoplay],
      ...layout(rem),
      loop: true,
      speed: still ? 0 : 500,
      watchSlidesProgress: true,
      autoplay: still ? false : { delay: AUTOPLAY_MS, pauseOnMouseEnter: true },
    })
    swiper.current = instance
    setMode(still ? 'still' : 'playing')
    followFocus(root, instance)
    return () => {
      instance.destroy(true, true)
      swiper.current = null
      root.classList.remove('swiper')
      track.classList.remove('swiper-wrapper')
      for (const slide of slides) slide.classList.remove('swiper-slide')
    }
  }, [])

  function togglePlaying() {
    const autoplay = swiper.current?.autoplay
    if (!autoplay) return
    if (mode === 'playing') autoplay.stop()
    else autoplay.start()
    setMode(mode === 'playing' ? 'paused' : 'playing')
  }

  return (
    <div ref={controls} className="carousel__controls" hidden={mode === 'static'}>
      <button
        type="button"
        className="carousel__arrow carousel__arrow--prev"
        aria-label={previousLabel}
        onClick={() => swiper.current?.slidePrev()}
      >
        <Chevron d="M15 5l-7 7 7 7" />
      </button>
      <button
        type="button"
        className="carousel__arrow carousel__arrow--next"
        aria-label={nextLabel}
        onClick={() => swiper.current?.slideNext()}
      >
        <Chevron d="M9 5l7 7-7 7" />
      </button>
      {mode === 'still' ? null : (
        <button
          type="button"
          className="carousel__play"
          aria-label={mode === 'playing' ? pauseLabel : playLabel}
          onClick={togglePlaying}
        >
          <Chevron d={mode === 'playing' ? 'M9 6v12M15 6v12' : 'M8 5l11 7-11 7z'} />
        </button>
      )}
    </div>
  )
}

function Chevron({ d }: { d: string }) {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d={d}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.25"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  )
}

/**
 * Keyboard focus inside the carousel pauses the autoplay, and focus on a link in a slide out of
 * view brings that slide into view (the browser would scroll the clipped container instead, which
 * breaks Swiper's positioning: what Swiper's A11y module does, without the rest of that module).
 */
function followFocus(root: Dom, instance: Swiper) {
  root.addEventListener('focusin', ({ target }) => {
    if (instance.autoplay?.running) instance.autoplay.pause()
    const slide = (target as Dom).closest('.carousel__slide')
    if (!slide || instance.visibleSlides?.includes(slide as unknown as HTMLElement)) return
    root.scrollLeft = 0
    browser().requestAnimationFrame(() => {
      root.scrollLeft = 0
      instance.slideToLoop(
        Number(
          (slide as unknown as { dataset: { swiperSlideIndex?: string } }).dataset
            .swiperSlideIndex ?? 0
        ),
        0
      )
    })
  })
  root.addEventListener('focusout', ({ relatedTarget }) => {
    if (!root.contains(relatedTarget) && instance.autoplay?.running) instance.autoplay.resume()
  })
}
