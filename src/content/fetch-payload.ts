/**
 * One payload from the backend, validated: the answer's JSON, its `payload` object (the raw one,
 * as the CMS sent it) and that object parsed by the endpoint's schema. The content client stores
 * the parsed one (src/freshness/content-client.ts); the content report compares the two (./report/).
 */
import type { z } from 'zod'
import { callBackend, type BackendEnv, messageOf, readJson } from './backend-transport'
import { ContentError } from './errors'
import { loadSchemas } from './payload-catalogue'

/** A loaded payload: what the backend sent, and what the site reads of it. */
export type LoadedPayload<T> = { raw: Record<string, unknown>; payload: T }

/** Loads `path`; rejects with a ContentError when the backend fails or the answer is malformed. */
export async function fetchPayload<S extends z.ZodType>(
  env: BackendEnv,
  path: string,
  schema: S,
  timeoutMs: number
): Promise<LoadedPayload<z.output<S>>> {
  const response = await callBackend(env, path, timeoutMs)
  const body = await readJson(response, path)
  if (!response.ok) {
    throw new ContentError(
      'status',
      `${path}: HTTP ${response.status}`,
      response.status,
      messageOf(body)
    )
  }
  const { EnvelopeSchema } = await loadSchemas()
  const envelope = EnvelopeSchema.safeParse(body)
  if (!envelope.success)
    throw new ContentError('malformed', `${path}: answer has no payload object`)
  return { raw: envelope.data.payload, payload: schema.parse(envelope.data.payload) }
}
