/**
 * The one content client: every call of spec section 7, with zod validation of the answer and the
 * KV payload cache in front of the GET calls. What it reads is named in src/content/payload-catalogue.ts
 * (endpoints, schemas, keys, tags); how it reaches the backend is src/content/backend-transport.ts.
 */
import type { z } from 'zod'
import type { Bindings } from '../env'
import {
  apiOrigin,
  callBackend,
  DEFAULT_TIMEOUT_MS,
  isTemporaryStatus,
  messageOf,
} from '../content/backend-transport'
import { contentTtlSeconds, createPayloadCache } from './payload-cache'
import { ContentError, DroppedAddressError, MalformedItemsError } from '../content/errors'
import { fetchPayload, type LoadedPayload } from '../content/fetch-payload'
import { describeProblems, projectsOf } from '../content/projects'
import {
  loadSchemas,
  pageMetaPath,
  PAYLOAD_ENDPOINTS,
  payloadKey,
  payloadSchema,
  payloadTag,
  type PayloadEndpoint,
} from '../content/payload-catalogue'
import { payloadHashesKey, type PayloadHashes } from './payload-hashes'
import type { PayloadStamp, RefreshOutcome } from './payload-store'
import { PAYLOAD_SCHEMA_VERSION } from '../content/payload-schema-version'
import type { EnterprisesPayloadSchema } from '../content/schemas'

/**
 * An isolate rendering several pages within a second reads each payload from KV once: the page
 * cache already trusts a payload's hash for as long (STAMP_MEMO_MS in src/freshness/),
 * and KV itself takes up to 60 s to show a write in other locations. The isolate that writes a
 * payload reads the new one at once.
 */
const PAYLOAD_READ_MEMO_MS = 1_000

/** A payload the scheduled refresh and the publish hook can load again. */
export type PayloadSource = {
  endpoint: PayloadEndpoint
  /** Its KV key. */
  key: string
  /** Its Cache-Tag. */
  tag: string
  /** Loads it from the backend now and stores it; rejects, writing nothing, when the backend fails. */
  refresh: () => Promise<RefreshOutcome>
  /** Its entry's hash and times, or null when KV has none. */
  stamp: () => Promise<PayloadStamp | null>
}

export type ContentClientOptions = {
  env: Bindings
  waitUntil: (promise: Promise<unknown>) => void
  /** Overrides the 10 s time-out (tests). */
  timeoutMs?: number
  /** The clock for cache freshness (tests). */
  now?: () => number
  /** Told about failed backend calls and cache errors. */
  onError?: (error: unknown, context: { key: string }) => void
  /** Whether a request may refresh payloads aged past CONTENT_TTL (no scheduled refresh running). */
  refreshesOnRequest?: () => Promise<boolean>
  /** Told about every payload served, with its tag: what the page is built from. */
  onRead?: (tag: string, stamp: PayloadStamp & { key: string }) => void
  /** Told when a request-side load stored a payload whose content changed. */
  onChanged?: (tag: string) => void
  /** The payload hashes the request read already, if it did (src/freshness/). */
  knownHashes?: () => Promise<PayloadHashes | null | undefined> | undefined
  /** Told about every payload loaded from the backend, as sent and as parsed (the publish hook's content report). */
  onLoaded?: (path: string, loaded: LoadedPayload<unknown>) => void
}

export type MessageInput = { name: string; email: string; comments: string }
/**
 * A refusal says whether the backend may take the message later: `temporary` for 5xx, 408 and 429
 * (the outbox queues it, src/contact/), false for any other answer but 200 (the message is refused).
 */
export type SendResult =
  { ok: true } | { ok: false; status: number; message?: string; temporary: boolean }
export type SendOptions = {
  /** Sent as the Idempotency-Key header: a backend that honours it stores one message per key. */
  idempotencyKey?: string
}

export function createContentClient(options: ContentClientOptions) {
  const { env } = options
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const cache = createPayloadCache({
    kv: env.CONTENT_CACHE,
    ttlSeconds: contentTtlSeconds(env),
    waitUntil: options.waitUntil,
    deadlineMs: timeoutMs,
    now: options.now,
    onError: (key, error) => options.onError?.(error, { key }),
    refreshesOnRequest: options.refreshesOnRequest,
    onRead: (key, stamp) => options.onRead?.(tagOfKey(key), { ...stamp, key }),
    onChanged: (key) => options.onChanged?.(tagOfKey(key)),
    schemaVersion: PAYLOAD_SCHEMA_VERSION,
    readMemoMs: PAYLOAD_READ_MEMO_MS,
    hashesKey: payloadHashesKey(env),
    knownHashes: options.knownHashes,
  })
  const tags = new Map<string, string>()
  const tagOfKey = (key: string) => tags.get(key) ?? key

  const call = (path: string, init?: RequestInit) => callBackend(env, path, timeoutMs, init)

  async function getPayload<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>> {
    const { raw, payload } = await fetchPayload(env, path, schema, timeoutMs)
    options.onLoaded?.(path, { raw, payload })
    const { findDroppedAddresses } = await loadSchemas()
    // A bad address costs only its own slot; the editor learns of it through the error report.
    const dropped = findDroppedAddresses(raw, payload)
    if (dropped.length > 0) options.onError?.(new DroppedAddressError(path, dropped), { key: path })
    const malformed = malformedItems(path, payload)
    if (malformed.length > 0)
      options.onError?.(new MalformedItemsError(path, malformed), { key: path })
    return payload
  }

  function keyOf(path: string): string {
    const key = payloadKey(apiOrigin(env), env.PRODUCT, path)
    tags.set(key, payloadTag(path))
    return key
  }

  function cached<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>> {
    return cache.read(
      keyOf(path),
      () => getPayload(path, schema),
      (stored) => schema.parse(stored)
    )
  }

  const metaPath = (page: string) => pageMetaPath(env.META_PATH, page)

  function source(endpoint: PayloadEndpoint, path: string): PayloadSource {
    const key = keyOf(path)
    return {
      endpoint,
      key,
      tag: payloadTag(path),
      refresh: () =>
        cache.refresh(key, async () => getPayload(path, await payloadSchema(endpoint))),
      stamp: () => cache.stampOf(key),
    }
  }

  return {
    /**
     * The cached payloads of `endpoints` (default: all), page meta data once for each of `pages`
     * (page keys such as '/about'): what the scheduled refresh and the publish hook refresh.
     */
    sources(
      pages: readonly string[],
      endpoints: readonly PayloadEndpoint[] = PAYLOAD_ENDPOINTS
    ): PayloadSource[] {
      return endpoints.flatMap((endpoint) =>
        endpoint === 'page-meta-data'
          ? pages.map((page) => source(endpoint, metaPath(page)))
          : [source(endpoint, endpoint)]
      )
    },
    homePage: async () => cached('get-home-page', await payloadSchema('get-home-page')),
    aboutPage: async () => cached('get-about-page', await payloadSchema('get-about-page')),
    enterprisesPage: async () =>
      cached('get-enterprises-page', await payloadSchema('get-enterprises-page')),
    contactData: async () => cached('contact-us', await payloadSchema('contact-us')),
    navbar: async () => cached('navbar-data', await payloadSchema('navbar-data')),
    /** Meta data for a page key such as '/about' (spec section 7: query path and page). */
    pageMeta: async (page: string) => cached(metaPath(page), await payloadSchema('page-meta-data')),
    /**
     * POST messages: success is status 200; otherwise the error body's `message` is read. Never
     * cached. A refusal and a call that fails (time-out, network: a thrown ContentError) are told to
     * `onError` as well.
     */
    async sendMessage(
      message: MessageInput,
      { idempotencyKey }: SendOptions = {}
    ): Promise<SendResult> {
      const path = 'messages'
      const failed = (error: unknown) => options.onError?.(error, { key: path })
      const headers: Record<string, string> = { 'Content-Type': 'application/json' }
      if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey
      const response = await call(path, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
      }).catch((error: unknown) => {
        failed(error)
        throw error
      })
      if (response.status === 200) {
        await response.body?.cancel()
        return { ok: true }
      }
      const body = await response.json().catch(() => undefined)
      const result = {
        ok: false,
        status: response.status,
        message: messageOf(body),
        temporary: isTemporaryStatus(response.status),
      } as const
      failed(
        new ContentError(
          'status',
          `${path}: HTTP ${response.status}`,
          response.status,
          result.message
        )
      )
      return result
    },
  }
}

export type ContentClient = ReturnType<typeof createContentClient>

/** Items of a freshly loaded payload that cannot be shown as the site would (the enterprises' project pages). */
function malformedItems(path: string, payload: unknown): string[] {
  if (path !== 'get-enterprises-page') return []
  const enterprises = payload as z.output<typeof EnterprisesPayloadSchema>
  return describeProblems(enterprises, projectsOf(enterprises).problems)
}
