/**
 * What the image route accepts from an origin before it decodes anything. The pixel limits are
 * Cloudflare Images' own input limits (https://developers.cloudflare.com/images/transform-images/),
 * checked here first so a decompression bomb is refused before it reaches the transformer.
 */

/** Largest original the route downloads: Content-Length and bytes counted while streaming. */
export const MAX_ORIGINAL_BYTES = 25 * 1024 * 1024

/**
 * Bytes read from an original before its pixel size must be known (a JPEG's EXIF, XMP and ICC
 * segments come before its frame header; a camera's are well under this).
 */
export const MAX_HEADER_BYTES = 512 * 1024

/** Largest image area, in pixels, the route transforms (a 4000×3000 photo is 12 MP). */
export const MAX_PIXELS = 100_000_000

/** Longest side, in pixels, the route transforms. */
export const MAX_SIDE = 12_000

/** Redirects followed, each checked against the allow-list, before giving up. */
export const MAX_REDIRECTS = 3

/** Time-out of an original's download when API_TIMEOUT_MS is not set. */
export const DEFAULT_ORIGIN_TIMEOUT_MS = 10_000

/**
 * How long a visitor waits for a miss (download and transform) when IMAGE_TRANSFORM_TIMEOUT_MS is
 * not set; the transform may go on as long again in the background, then is abandoned.
 */
export const DEFAULT_TRANSFORM_TIMEOUT_MS = 20_000

/**
 * Transforms one isolate runs at once (route and placeholders together); more wait for a slot.
 */
export const MAX_TRANSFORMS_AT_ONCE = 4

/**
 * Bytes of originals one isolate transforms at once: a transform needs its whole original (the
 * service decodes it as one file), so it is the originals' sizes, not their count, that fill an
 * isolate's 128 MB. The bench's 20 concurrent misses of 24 MB originals raise workerd's memory by
 * about 100 MB (`npm run bench`, image route fences; reads of 64 KB, see chunk-reader.ts).
 * A 24 MB original runs alone; ten 3 MB camera photos run together. An original of unknown size
 * (no Content-Length, or a compressed transfer) counts as MAX_ORIGINAL_BYTES.
 */
export const MAX_TRANSFORM_BYTES_AT_ONCE = 32 * 1024 * 1024

/** Quality of lossy outputs (AVIF, WebP, JPEG): visually lossless for photos at these sizes. */
export const OUTPUT_QUALITY = 75
