/**
 * What the image route says when it serves no rendition: one short, fixed code per outcome, in
 * `X-Image-Reason` and in the plain-text body's sentence. Never the binding's or the origin's own
 * text (stack frames, paths): that goes to the logs and Sentry only.
 */
import { IMAGE_WIDTHS } from './image-url'

export const IMAGE_REASONS = {
  'missing-src': 'No image source was given.',
  'width-not-served': `This width is not served; use one of ${IMAGE_WIDTHS.join(', ')}.`,
  'fallback-not-served': 'This fallback is not a bundled slot image.',
  'not-canonical': 'This is not an image address the site writes.',
  'not-signed': 'This image address was not made by the site.',
  'source-refused': 'This image source is not allowed.',
  'rate-limited': 'Too many new images for one client; try again in a minute.',
  'origin-not-found': 'The original image was not found.',
  'origin-unavailable': 'The original image could not be loaded.',
  'too-many-redirects': 'The original image redirects too often.',
  'redirect-refused': 'The original image redirects to an address that is not allowed.',
  'not-an-image': 'The original is not an image.',
  'too-large': 'The original image is too large.',
  'too-many-pixels': 'The original image has too many pixels.',
  'unreadable-header': 'The original image could not be read.',
  undecodable: 'The original image is damaged or incomplete.',
  'svg-not-served': 'SVG images are not served by the image route.',
  'transform-failed': 'The image could not be resized.',
  'still-transforming': 'The image is still being prepared; try again shortly.',
  busy: 'Too many images are being prepared; try again shortly.',
  'not-cached': 'This image has not been prepared yet.',
} as const satisfies Record<string, string>

export type ImageReason = keyof typeof IMAGE_REASONS
