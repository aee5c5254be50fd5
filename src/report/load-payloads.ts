/**
 * Every payload the pages read, loaded as the content client loads them (../fetch-payload.ts, the
 * catalogue's schemas and paths), without the KV cache: what the backend holds now. A payload that
 * fails, times out or is malformed becomes one line; the others load all the same.
 */
import type { BackendEnv } from '../content/backend-transport'
import { DEFAULT_TIMEOUT_MS } from '../content/backend-transport'
import { fetchPayload } from '../content/fetch-payload'
import {
  pageMetaPath,
  pageOfTag,
  PAYLOAD_ENDPOINTS,
  payloadSchema,
  payloadTag,
  type PayloadEndpoint,
} from '../content/payload-catalogue'
import type { PayloadLoad } from './payload-loads'

/** The pages with meta data of their own: those the page payloads are the content of. */
export function pagesWithMeta(): string[] {
  return PAYLOAD_ENDPOINTS.flatMap((endpoint) => pageOfTag(payloadTag(endpoint)) ?? [])
}

/** Loads every payload; the map is keyed by tag, in the catalogue's order. */
export async function loadPayloads(
  env: BackendEnv & { META_PATH: string },
  timeoutMs = DEFAULT_TIMEOUT_MS
): Promise<Map<string, PayloadLoad>> {
  const calls: [PayloadEndpoint, string][] = PAYLOAD_ENDPOINTS.flatMap((endpoint) =>
    endpoint === 'page-meta-data'
      ? pagesWithMeta().map((page): [PayloadEndpoint, string] => [
          endpoint,
          pageMetaPath(env.META_PATH, page),
        ])
      : [[endpoint, endpoint] as [PayloadEndpoint, string]]
  )
  const loads = await Promise.all(
    calls.map(async ([endpoint, path]): Promise<[string, PayloadLoad]> => {
      try {
        return [
          payloadTag(path),
          await fetchPayload(env, path, await payloadSchema(endpoint), timeoutMs),
        ]
      } catch (error) {
        return [payloadTag(path), { error: error instanceof Error ? error.message : String(error) }]
      }
    })
  )
  return new Map(loads)
}
