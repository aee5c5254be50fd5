/**
 * The content client of a preview request (src/preview/): every payload read from the backend at
 * that moment, with the editor's token (PREVIEW_API_TOKEN) as the Authorization header, so that a
 * CMS which answers that token with drafts shows them here and only here. No KV payload cache, no
 * payload hashes, no purge: nothing it reads goes where visitors' pages come from. Each payload is
 * loaded once per request and recorded, as sent and as parsed or as its error, in `loads` (the
 * content report's PayloadLoads: ./report/payload-loads.ts).
 * Why: docs/decisions/0045-preview-mode.md.
 */
import type { z } from 'zod'
import type { Bindings } from '../env'
import type { BackendEnv } from './backend-transport'
import { createContentClient, type ContentClient } from './client'
import { fetchPayload } from './fetch-payload'
import { pageMetaPath, payloadSchema, payloadTag, type PayloadEndpoint } from './payload-catalogue'
import type { PayloadLoad } from './report/payload-loads'

/** What `endpoint`'s schema makes of its payload. */
type Parsed<E extends PayloadEndpoint> = z.output<Awaited<ReturnType<typeof payloadSchema<E>>>>

export type PreviewContentOptions = {
  env: Bindings
  /** The time-out of each backend call. */
  timeoutMs?: number
  /** Where each payload's load is recorded, by tag (`c.var.previewLoads`). */
  loads: Map<string, PayloadLoad>
  /** Told about a payload that failed to load. */
  onError?: (error: unknown, context: { key: string }) => void
}

/**
 * The backend as preview reads it: the editor's token in API_TOKEN's place (API_TOKEN itself when
 * no editor's token is set: the published content, still read at this moment).
 */
export function editorBackend(env: Bindings): BackendEnv {
  return { ...env, API_TOKEN: env.PREVIEW_API_TOKEN ?? env.API_TOKEN }
}

export function createPreviewContentClient(options: PreviewContentOptions): ContentClient {
  const { env, loads } = options
  const backend = editorBackend(env)
  const reads = new Map<string, Promise<unknown>>()

  function read<E extends PayloadEndpoint>(endpoint: E, path: string): Promise<Parsed<E>> {
    let reading = reads.get(path)
    if (!reading) {
      reading = (async () => {
        const tag = payloadTag(path)
        try {
          const loaded = await fetchPayload(
            backend,
            path,
            await payloadSchema(endpoint),
            options.timeoutMs ?? 10_000
          )
          loads.set(tag, loaded)
          return loaded.payload
        } catch (error) {
          loads.set(tag, { error: error instanceof Error ? error.message : String(error) })
          options.onError?.(error, { key: path })
          throw error
        }
      })()
      reads.set(path, reading)
    }
    return reading as Promise<Parsed<E>>
  }

  // The visitors' client lends only what preview never does: messages go to the public routes.
  const published = createContentClient({ env, waitUntil: () => {}, timeoutMs: options.timeoutMs })
  return {
    ...published,
    sources: () => [],
    homePage: () => read('get-home-page', 'get-home-page'),
    aboutPage: () => read('get-about-page', 'get-about-page'),
    enterprisesPage: () => read('get-enterprises-page', 'get-enterprises-page'),
    contactData: () => read('contact-us', 'contact-us'),
    navbar: () => read('navbar-data', 'navbar-data'),
    pageMeta: (page: string) => read('page-meta-data', pageMetaPath(env.META_PATH, page)),
  }
}
