/**
 * How the content client talks to the backend: `${API_HOST}/api/${PRODUCT}/...` over the network
 * with API_HOST set, else the bundled reference service through the CONTENT service binding; the
 * Authorization header, a time-out, and every failure as a ContentError.
 */
import type { Bindings } from '../env'
import { ContentError } from './errors'

/** What a backend call needs of the environment: the content report's CLI builds just this. */
export type BackendEnv = Pick<Bindings, 'API_HOST' | 'API_TOKEN' | 'PRODUCT' | 'CONTENT'>

/**
 * The backend as preview reads it: the editor's token in API_TOKEN's place (API_TOKEN itself when
 * no editor's token is set: the published content, still read at this moment).
 */
export function editorBackend(env: Bindings): BackendEnv {
  return { ...env, API_TOKEN: env.PREVIEW_API_TOKEN ?? env.API_TOKEN }
}

/** Spec section 7: default time-out of every backend call. */
export const DEFAULT_TIMEOUT_MS = 10_000

/** The backend's origin: API_HOST, or a label for the bundled service (reached through the binding). */
export function apiOrigin(env: Pick<Bindings, 'API_HOST'>): string {
  return env.API_HOST ? env.API_HOST.replace(/\/+$/, '') : 'https://content.internal'
}

/** Sends `path` to the backend; a time-out or network failure rejects with a ContentError. */
export function callBackend(
  env: BackendEnv,
  path: string,
  timeoutMs: number,
  init: RequestInit = {}
): Promise<Response> {
  const url = `${apiOrigin(env)}/api/${encodeURIComponent(env.PRODUCT)}/${path}`
  const headers = new Headers(init.headers)
  headers.set('Authorization', env.API_TOKEN ?? '')
  headers.set('Accept', 'application/json')
  const request = new Request(url, { ...init, headers, signal: AbortSignal.timeout(timeoutMs) })
  const send = env.API_HOST ? fetch(request) : env.CONTENT.fetch(request)
  return send.catch((error: unknown) => {
    const timedOut =
      error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
    throw new ContentError(timedOut ? 'timeout' : 'network', `${path}: ${String(error)}`)
  })
}

/** The answer's JSON; undefined for an error answer that is not JSON. */
export async function readJson(response: Response, path: string): Promise<unknown> {
  const text = await response.text().catch((error: unknown) => {
    throw new ContentError(
      'network',
      `${path}: body could not be read: ${String(error)}`,
      response.status
    )
  })
  try {
    return JSON.parse(text)
  } catch {
    if (!response.ok) return undefined
    throw new ContentError('malformed', `${path}: answer is not JSON`, response.status)
  }
}

/** The `message` of an error answer's body, when it has one. */
export function messageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const message = (body as { message?: unknown }).message
  return typeof message === 'string' && message.trim() ? message : undefined
}

/** Statuses that say "not now" rather than "not this message". */
export function isTemporaryStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429
}
