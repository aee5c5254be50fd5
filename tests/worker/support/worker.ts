/** Runs the site worker for one request with the given bindings and waits for its background work. */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import worker from '../../../src/index'
import type { Bindings } from '../../../src/env'

export async function fetchPage(
  path: string,
  bindings: Bindings,
  init?: RequestInit
): Promise<Response> {
  const ctx = createExecutionContext()
  const response = await worker.fetch(
    new Request(new URL(path, 'http://localhost'), init),
    bindings,
    ctx
  )
  const body = await response.text()
  await waitOnExecutionContext(ctx)
  return new Response(body, response)
}
