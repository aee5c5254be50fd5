/**
 * A page's placeholders, read before it renders: the image sources of its parsed payloads (every
 * field that holds an image address, in every language, plus the bundled slot fallbacks), one KV
 * read for all of them, and the missing ones computed after the response.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { imageSrc } from './image-source'
import { SLOT_FALLBACKS } from './image-url'
import { computePlaceholders, readPlaceholders, type Placeholders } from './placeholders'

/**
 * The payload fields that hold an image address (../../shared/spec/payload-fields.md): `img` and
 * `icon` in items and sections, and contact's `firstBanner` and `secondBanner` (strings there;
 * about's `firstBanner` is an object, walked into). Page meta's `image` is for link previews only.
 */
const IMAGE_FIELDS = new Set(['img', 'icon', 'firstBanner', 'secondBanner'])

/** Every usable image address in `payloads`, as the Image component will name it, and the fallbacks. */
export function collectImageSources(payloads: readonly unknown[]): string[] {
  const sources = new Set<string>(SLOT_FALLBACKS)
  const visit = (value: unknown, field: string) => {
    if (typeof value === 'string') {
      const source = IMAGE_FIELDS.has(field) ? imageSrc(value) : ''
      if (source) sources.add(source)
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, field)
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) visit(child, key)
    }
  }
  for (const payload of payloads) visit(payload, '')
  return [...sources]
}

/** The stored placeholders of the page's images; those missing are computed in the background. */
export async function placeholdersFor(c: Context<AppEnv>, payloads: readonly unknown[]): Promise<Placeholders> {
  const sources = collectImageSources(payloads)
  const found = await readPlaceholders(c.env.CONTENT_CACHE, sources)
  const missing = sources.filter((source) => !found.has(source))
  if (missing.length > 0) c.executionCtx.waitUntil(computePlaceholders(c.env, missing))
  return found
}
