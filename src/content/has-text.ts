/**
 * The one judgement of whether a CMS value is empty, for the site's picker (./localize.ts), its
 * views and the content report alike. Rich-text editors save a cleared field as markup: Quill as
 * `<p><br></p>`, Tiptap as `<p></p>`, Wagtail and Froala as `<p><br/></p>`, others as
 * `<p>&nbsp;</p>`. Such a value holds no text a visitor could read, so it is empty: the picker
 * falls back to another language and the report names the field.
 */
import { decodeCharacterReferences } from './html-tokenizer'

/** Whitespace, no-break and zero-width characters: nothing a visitor reads. */
const INVISIBLE = /^[\s\u00a0\u200b-\u200d\u2060\ufeff]*$/

/** Whether `value` has visible text once its tags are set aside and its character references read. */
export function hasText(value: string): boolean {
  const known = memo.get(value)
  if (known !== undefined) return known
  const text = decodeCharacterReferences(value.replace(/<[^>]*>/g, ''))
  const result = !INVISIBLE.test(text)
  if (memo.size >= MAX_REMEMBERED) memo.clear()
  memo.set(value, result)
  return result
}

/**
 * Results by value, per isolate: every render of a page judges the same stored values again.
 * Bounded: a full memo starts over.
 */
const MAX_REMEMBERED = 500
const memo = new Map<string, boolean>()
