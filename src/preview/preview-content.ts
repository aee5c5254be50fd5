/**
 * The content client of a preview request (src/preview/): every payload read from the backend at
 * that moment, with the editor's token (PREVIEW_API_TOKEN) as the Authorization header, so that a
 * CMS which answers that token with drafts shows them here and only here. No KV payload cache, no
 * payload hashes, no purge: nothing it reads goes where visitors' pages come from. Each payload is
 * loaded once per request and recorded, as sent and as parsed or as its error, in `loads` (the
 * content report's PayloadLoads: src/report/payload-loads.ts).
 * Why: docs/decisions/0045-preview-mode.md.
 */
import type { Context } from 'hono'
import type { z } from 'zod'
import { editorBackend } from '../content/backend-transport'
import { fetchPayload } from '../content/fetch-payload'
import {
  pageMetaPath,
  payloadSchema,
  payloadTag,
  type PayloadEndpoint,
} from '../content/payload-catalogue'
import type { PayloadLoad } from '../report'
import type { AppEnv, Bindings } from '../env'
import { createContentClient, type ContentClient } from '../freshness'

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

/** Each preview request's one client, so that a payload two parts of its page read loads once. */
const previewClients = new WeakMap<Context<AppEnv>, ContentClient>()

/** The content client of a preview request (`c.var.preview` set), recording into `c.var.previewLoads`. */
export function previewContentFor(c: Context<AppEnv>): ContentClient {
  let client = previewClients.get(c)
  if (!client) {
    let loads = c.get('previewLoads')
    if (!loads) {
      loads = new Map()
      c.set('previewLoads', loads)
    }
    const timeout = Number(c.env.API_TIMEOUT_MS)
    client = createPreviewContentClient({
      env: c.env,
      loads,
      timeoutMs: timeout > 0 ? timeout : undefined,
      onError: (error, { key }) => console.warn(`preview content: ${key}: ${String(error)}`),
    })
    previewClients.set(c, client)
  }
  return client
}
