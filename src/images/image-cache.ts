/**
 * Transformed images in the Cache API, keyed by what determines their bytes: the source, the width
 * and the output format class (avif | webp | original). It works the same under `wrangler dev`, in
 * the tests and in every data centre; Workers Cache in front of the worker, when enabled, honours
 * the same Cache-Control and `Vary: Accept` and adds tiering across data centres.
 */
import type { RasterFormat } from './image-format'
import type { AllowedSource } from './source-policy'

/**
 * What a rendition is stored with, and so what it is answered with, hit or miss: a photo's address
 * never changes content (docs/decisions/0012-image-route.md).
 */
export const RENDITION_CACHE_CONTROL = 'public, max-age=31536000, immutable'

/**
 * The Cache API request for one rendition. `origin` is the site's (Cache API keys are URLs). A
 * bundled file's renditions are also keyed by the deployment (`version`): a deploy may change the
 * file under the same name, while a CMS upload's address never changes content and its renditions
 * outlive deploys (transforming every photo again after each deploy would cost a billed call each).
 */
export function renditionKey(
  origin: string,
  kind: string,
  width: number,
  source: AllowedSource,
  version: string
): Request {
  const scope = source.kind === 'asset' ? `asset-${encodeURIComponent(version)}` : 'remote'
  const src = source.kind === 'asset' ? source.path : source.url.href
  return new Request(
    `${origin}/__image-cache/v1/${scope}/${kind}/${width}?src=${encodeURIComponent(src)}`
  )
}

/** The stored rendition, or undefined. A Cache API failure is a miss, never an error. */
export async function readRendition(key: Request): Promise<Response | undefined> {
  try {
    return await caches.default.match(key)
  } catch {
    return undefined
  }
}

/** Stores a rendition encoded as `format`, with RENDITION_CACHE_CONTROL. Failures are logged and ignored. */
export async function storeRendition(
  key: Request,
  body: Uint8Array,
  format: RasterFormat
): Promise<void> {
  try {
    await caches.default.put(
      key,
      new Response(body, {
        headers: { 'Content-Type': format, 'Cache-Control': RENDITION_CACHE_CONTROL },
      })
    )
  } catch (error) {
    console.warn(`image cache: not stored: ${String(error)}`)
  }
}
