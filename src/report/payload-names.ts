/** How the report names a payload, by its tag (../payload-catalogue.ts): its source and its page. */
import { pageOfTag } from '../content/payload-catalogue'

/** The payload's source name in the report: its tag without `payload:`. */
export function sourceOf(tag: string): string {
  return tag.replace(/^payload:/, '')
}

/** The page a payload is the content of ('navbar-data' for the shared navbar). */
export function pageOf(tag: string): string {
  return pageOfTag(tag) ?? sourceOf(tag)
}
