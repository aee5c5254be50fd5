/**
 * Short texts (headings, card titles) never break inside a word: their type shrinks until their
 * longest word fits the width they have (src/styles/base/whole-words.css). The server knows the
 * words, whatever the CMS sends, and the stylesheet knows the width, so each such element carries
 * its longest word's length as `--longest-word` and the stylesheet does the rest
 * (docs/decisions/0008-whole-words.md).
 */
import type { CSSProperties } from 'react'

/** A word ends at a space or a hyphen, where a browser may wrap without breaking it. */
const WORD_BREAKS = /[\s\u00ad\-\u2010-\u2014/]+/u

/** The length, in characters, of the longest word of `text`; 0 for none. */
export function longestWordLength(text: string): number {
  let longest = 0
  for (const word of text.split(WORD_BREAKS)) longest = Math.max(longest, [...word].length)
  return longest
}

/** `style` for an element whose text must keep its words whole: `--longest-word: <characters>`. */
export function wholeWordsStyle(text: string | undefined): CSSProperties {
  return { '--longest-word': longestWordLength(text ?? '') } as CSSProperties
}
