/**
 * A page's placeholders: the image sources of its parsed payloads (every field that holds an image
 * address, in every language, plus the bundled slot fallbacks), found in the placeholder index,
 * which the render reads beside its payloads (`readPlaceholdersBeside`), and the missing ones read
 * and computed after the response.
 * Why: docs/decisions/0032-a-miss-waits-for-at-most-two-round-trips.md.
 */
import type { Context } from 'hono'
import type { AppEnv, Bindings } from '../env'
import { imageSrc } from './image-source'
import { SLOT_FALLBACKS } from './image-url'
import {
  readPlaceholderIndex,
  rememberedPlaceholders,
  settlePlaceholders,
  warmPlaceholders,
  type Placeholders,
} from './placeholders'

/**
 * The payload fields that hold an image address (../../shared/spec/payload-fields.md): `img` and
 * `icon` in items and sections, and contact's `firstBanner` and `secondBanner` (strings there;
 * about's `firstBanner` is an object, walked into). Page meta's `image` is for link previews only.
 */
const IMAGE_FIELDS = new Set(['img', 'icon', 'firstBanner', 'secondBanner'])

/** Every usable image address in `payloads`, as the Image component will name it, and the fallbacks. */
export function collectImageSources(payloads: readonly unknown[]): string[] {
  const sources = new Set<string>(SLOT_FALLBACKS)
  for (const payload of payloads) for (const source of sourcesOf(payload)) sources.add(source)
  return [...sources]
}

/**
 * The image addresses of each payload object this isolate has walked: a stored payload is parsed
 * once per isolate and shared read-only (src/freshness/payload-cache.ts), so its renders walk it once.
 */
const walked = new WeakMap<object, readonly string[]>()

function sourcesOf(payload: unknown): readonly string[] {
  if (!payload || typeof payload !== 'object') return []
  const known = walked.get(payload)
  if (known) return known
  const sources = new Set<string>()
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
  visit(payload, '')
  const found = [...sources]
  walked.set(payload, found)
  return found
}

/**
 * Starts this request's read of the placeholder index (unless the isolate read it within the last
 * minute), before the page's payloads are known: called as a page's render starts, so the read runs
 * beside the payloads' KV reads or backend calls, not after them.
 */
export function readPlaceholdersBeside(c: Context<AppEnv>): void {
  if (!c.get('placeholderIndex'))
    c.set('placeholderIndex', readPlaceholderIndex(c.env.CONTENT_CACHE))
}

/**
 * The placeholders of the page's images that the index holds. The others (a photo never previewed,
 * an index that lacks one) are read from their own keys, computed when KV has none, and added to
 * the index after the response; the page is marked provisional, so that no cache keeps it without
 * them for long. No KV read waits after the payloads.
 */
export async function placeholdersFor(
  c: Context<AppEnv>,
  payloads: readonly unknown[]
): Promise<Placeholders> {
  readPlaceholdersBeside(c)
  await c.get('placeholderIndex')
  const { previews, unknown } = rememberedPlaceholders(collectImageSources(payloads))
  // A preview (a draft's images, perhaps) computes and stores none: it writes nothing visitors read.
  if (unknown.length > 0 && !c.var.preview) {
    c.set('provisional', true)
    c.executionCtx.waitUntil(settlePlaceholders(c.env, unknown))
  }
  return previews
}

/**
 * After the scheduled refresh or the publish hook stored changed payloads: computes the
 * placeholders of their images ahead of the pages that will show them (src/freshness/refresh.ts,
 * `onPayloadsChanged`). Reads the stored entries, so it sees exactly what pages will render.
 */
export async function warmChangedPlaceholders(
  env: Bindings,
  changed: readonly { key: string }[]
): Promise<void> {
  const entries = await Promise.all(
    changed.map(({ key }) => env.CONTENT_CACHE.get<{ payload?: unknown }>(key, 'json'))
  )
  await warmPlaceholders(env, collectImageSources(entries.map((entry) => entry?.payload)))
}
