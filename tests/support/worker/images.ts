/**
 * Asking the image route for images as a browser would, and reading what came back: the bytes and,
 * through the Images binding itself, their real format and pixel size.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import worker from '../../../src/index'
import type { Bindings } from '../../../src/env'
import { DEV_IMAGE_URL_SECRET } from '../../../src/images/image-signature'
import { imageUrl } from '../../../src/images/image-url'
import { onTestFinished } from 'vitest'
import { fakeBackend, type Answer } from './fake-backend'

/** Chromium's Accept for images; Safari before AVIF, and a client that names no modern format. */
export const ACCEPT = {
  avif: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
  webp: 'image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5',
  none: '*/*',
} as const

/** The address a page writes for `src` at `width`: signed with the development key, as under `npm start` and `npm test`. */
export function pageImageUrl(src: string, width: number, fallback?: string): string {
  return imageUrl(src, width, fallback, DEV_IMAGE_URL_SECRET)
}

export type ImageAnswer = { response: Response; bytes: Uint8Array; text: () => string }

/** GET `path` with `accept` (and `headers`), waiting for the worker's background work (the cache write). */
export async function fetchImage(
  path: string,
  bindings: Bindings,
  accept: string = ACCEPT.avif,
  headers: Record<string, string> = {}
): Promise<ImageAnswer> {
  const ctx = createExecutionContext()
  const response = await worker.fetch(
    new Request(new URL(path, 'http://localhost'), { headers: { Accept: accept, ...headers } }),
    bindings,
    ctx
  )
  const bytes = new Uint8Array(await response.arrayBuffer())
  await waitOnExecutionContext(ctx)
  return { response, bytes, text: () => new TextDecoder().decode(bytes) }
}

/** Format and pixel size of `bytes`, as Cloudflare Images reads them. */
export async function imageInfo(
  bytes: Uint8Array
): Promise<{ format: string; width: number; height: number }> {
  const info = await env.IMAGES.info(new Blob([bytes]).stream())
  if (!('width' in info)) throw new Error(`not a raster image: ${info.format}`)
  return { format: info.format, width: info.width, height: info.height }
}

/** SHA-256 of `bytes` in hex: compares large images at once (a deep equality of 500 KB takes seconds). */
export async function digestOf(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
  return [...hash].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** Base64 test bytes (vitest.config.ts TEST_IMAGES) as bytes. */
export function decodeBase64(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
}

/** A bundled file's bytes, straight from the ASSETS binding. */
export async function assetBytes(path: string): Promise<Uint8Array> {
  const response = await env.ASSETS.fetch(new URL(path, 'http://assets.local'))
  if (!response.ok) throw new Error(`${path}: ${response.status}`)
  return new Uint8Array(await response.arrayBuffer())
}

/** An answer that serves `bytes` as `contentType`, a fresh Response per call. */
export function serveBytes(bytes: Uint8Array, contentType = 'image/jpeg', init: ResponseInit = {}) {
  return () =>
    new Response(bytes.slice(), {
      status: 200,
      ...init,
      headers: { 'Content-Type': contentType, ...init.headers },
    })
}

/** A CMS origin at `fetch` serving `files` (by last path segment), its address API_HOST; restored when the test ends. */
export function fakeCms(files: Record<string, Answer>, overrides: Partial<Bindings> = {}) {
  const backend = fakeBackend(files)
  onTestFinished(backend.restore)
  return {
    ...backend,
    bindings: backend.env(overrides),
    url: (file: string) => `${backend.origin}/uploads/${file}`,
  }
}
