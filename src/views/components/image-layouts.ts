/**
 * How wide each kind of content image is displayed, read from src/styles/site.css, so that `sizes`
 * tells the browser the truth and it fetches the smallest rung of the ladder that is sharp enough
 * (no more than 2.5× its displayed width at the visitor's pixel ratio).
 *
 * The figures come from the layout: `.container` is the viewport less a gutter of 1.25rem each side
 * (2rem from 48em), at most 75rem wide, so its content is `100vw - 40px`, `100vw - 64px`, then
 * 1136px from 75em. Media queries in `sizes` use em of the initial 16px font size, as the
 * stylesheet's do. Change a width in site.css, change it here (tests/e2e/images.spec.ts measures it).
 */

export type ImageLayout = {
  /** The `sizes` attribute: the displayed width of the image at each breakpoint. */
  sizes: string
  /** The widest it is ever displayed, in CSS px: the ladder stops at three times this (DPR 3). */
  maxWidth: number
  /**
   * The narrowest it is ever displayed, in CSS px, from a 320-px screen up: the ladder starts at
   * the first rung this wide, since a browser never picks a narrower one (at DPR 1 or more).
   */
  minWidth: number
  /**
   * Whether a placeholder may be painted under it: only for opaque photos that cover their box;
   * a placeholder would show through a logo's or an icon's transparent pixels.
   */
  placeholder: boolean
}

const FULL_WIDTH = Number.POSITIVE_INFINITY

export const IMAGE_LAYOUTS = {
  /** Every page's banner, the about page's wide banner and the partners' backdrop: full width. */
  banner: { sizes: '100vw', maxWidth: FULL_WIDTH, minWidth: 320, placeholder: true },
  /** Home's about block and the enterprise rows: one column, then half the container less the gap (3rem, then 5rem). */
  split: {
    sizes:
      '(min-width: 75em) 528px, (min-width: 64em) calc(50vw - 72px), (min-width: 48em) calc(50vw - 56px), calc(100vw - 40px)',
    maxWidth: 767 - 40,
    minWidth: 280,
    placeholder: true,
  },
  /** About's quote card: one column, then 1fr of `1.1fr 1fr` less a 5rem gap from 64em. */
  quote: {
    sizes:
      '(min-width: 75em) 503px, (min-width: 64em) calc((100vw - 144px) / 2.1), (min-width: 48em) calc(100vw - 64px), calc(100vw - 40px)',
    maxWidth: 1023 - 64,
    minWidth: 280,
    placeholder: true,
  },
  /** Contact's side photo: one column, then 1fr of `1fr 1.1fr` less a 4rem gap from 64em. */
  contact: {
    sizes:
      '(min-width: 75em) 511px, (min-width: 64em) calc((100vw - 128px) / 2.1), (min-width: 48em) calc(100vw - 64px), calc(100vw - 40px)',
    maxWidth: 1023 - 64,
    minWidth: 280,
    placeholder: true,
  },
  /** Carousel slides: 1, 2 (from 48em, 1.5rem apart) and 3 (from 64em) per view. */
  card: {
    sizes:
      '(min-width: 75em) 363px, (min-width: 64em) calc((100vw - 112px) / 3), (min-width: 48em) calc(50vw - 44px), calc(100vw - 40px)',
    maxWidth: 767 - 40,
    minWidth: 280,
    placeholder: true,
  },
  /**
   * Mission cards: an auto-fit grid of columns at least 16rem wide, 1.5rem apart, so 2 columns from
   * 36em, 3 from 55em and 4 from 72.5em (the page has four cards).
   */
  mission: {
    sizes:
      '(min-width: 75em) 266px, (min-width: 72.5em) calc((100vw - 136px) / 4), (min-width: 55em) calc((100vw - 112px) / 3), (min-width: 48em) calc(50vw - 44px), (min-width: 36em) calc(50vw - 32px), calc(100vw - 40px)',
    maxWidth: 575 - 40,
    minWidth: 256,
    placeholder: true,
  },
  /** Founders' round photos: 8.5rem, then 12rem, less a 5px border each side. */
  founder: {
    sizes: '(min-width: 48em) 182px, 126px',
    maxWidth: 182,
    minWidth: 126,
    placeholder: true,
  },
  /** Partner logos, contained in a 9rem (then 11rem) box with 1rem of padding each side. */
  partner: {
    sizes: '(min-width: 48em) 144px, 112px',
    maxWidth: 144,
    minWidth: 112,
    placeholder: false,
  },
  /** Service icons: 4rem circles with 0.75rem of padding. */
  serviceIcon: { sizes: '40px', maxWidth: 40, minWidth: 40, placeholder: false },
  /** The linked icon beside an enterprise row's title: 2.75rem. */
  rowIcon: { sizes: '44px', maxWidth: 44, minWidth: 44, placeholder: false },
} as const satisfies Record<string, ImageLayout>

export type ImageLayoutName = keyof typeof IMAGE_LAYOUTS

/** The widest pixel ratio the ladder serves sharp images for. */
const MAX_DPR = 3

/**
 * The widths of `ladder` a layout can need: from the first rung at least its narrowest display
 * (DPR 1) to the first rung at least its widest display at DPR 3 (or the top of the ladder for
 * full-width images). Every other rung is a candidate no browser picks, which only makes the page
 * longer: a signed address each.
 */
export function widthsFor(layout: ImageLayout, ladder: readonly number[]): number[] {
  const needed = layout.maxWidth * MAX_DPR
  const cut = ladder.findIndex((width) => width >= needed)
  const upToWidest = cut === -1 ? [...ladder] : ladder.slice(0, cut + 1)
  const first = upToWidest.findIndex((width) => width >= layout.minWidth)
  return first === -1 ? upToWidest.slice(-1) : upToWidest.slice(first)
}
