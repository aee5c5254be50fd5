/**
 * A page's placeholders, read before it renders: the image sources of its parsed payloads (every
 * field that holds an image address, in every language, plus the bundled slot fallbacks), one KV
 * read for all of them, and the missing ones computed after the response.
 */
import type { Context } from 'hono'
import type { AppEnv, Bindings } from '../env'
import { imageSrc } from './image-source'
import { SLOT_FALLBACKS } from './image-url'
import {
  computePlaceholders,
  readPlaceholderStates,
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
 * once per isolate and shared read-only (src/content/cache.ts), so its renders walk it once.
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
 * The stored placeholders of the page's images. Those still pending are computed after the response,
 * and the page is marked provisional, so that no cache keeps it without them for long.
 */
export async function placeholdersFor(
  c: Context<AppEnv>,
  payloads: readonly unknown[]
): Promise<Placeholders> {
  const { previews, pending } = await readPlaceholderStates(
    c.env.CONTENT_CACHE,
    collectImageSources(payloads)
  )
  if (pending.length > 0) {
    c.set('provisional', true)
    c.executionCtx.waitUntil(computePlaceholders(c.env, pending))
  }
  return previews
}

/**
 * After the scheduled refresh or the publish hook stored changed payloads: computes the
 * placeholders of their images ahead of the pages that will show them (src/content/refresh.ts,
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
