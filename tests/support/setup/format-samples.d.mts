/** A 480×360 image in each raster format the image route reads (see format-samples.mjs). */
export function formatSamples(): Promise<Record<'jpeg' | 'png' | 'gif' | 'webp' | 'avif', Buffer>>
/** A 96×72 JPEG that every encoder turns out in milliseconds (see format-samples.mjs). */
export function smallPhoto(): Promise<Buffer>
