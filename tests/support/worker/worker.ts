/**
 * Runs the site worker for one request, or the harness worker that wraps it for the browser tests
 * and the bench (scripts/lib/harness-worker/), and starts new isolates of them: after newIsolate()
 * both are imported afresh, the site's modules evaluated again, as a new isolate starts.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import type { HarnessBindings } from '../../../scripts/lib/harness-worker/worker'
import type { Bindings } from '../../../src/env'
import { forgetSiteModules } from './site-modules'

/** Runs the site worker (this test's isolate of it) for one request and waits for its background work. */
export async function fetchPage(
  path: string,
  bindings: Bindings,
  init?: RequestInit
): Promise<Response> {
  const { default: worker } = await import('../../../src/index')
  return run((request, ctx) => worker.fetch(request, bindings, ctx), path, init)
}

/** fetchPage through the harness worker: the plain page, the cache bypass, the beacons' echo. */
export async function fetchThroughHarness(
  path: string,
  bindings: HarnessBindings,
  init?: RequestInit
): Promise<Response> {
  const { default: harness } = await import('../../../scripts/lib/harness-worker/worker')
  return run((request, ctx) => harness.fetch(request as IncomingRequest, bindings, ctx), path, init)
}

type IncomingRequest = Parameters<ExportedHandlerFetchHandler>[0]

async function run(
  fetch: (request: Request, ctx: ExecutionContext) => Response | Promise<Response>,
  path: string,
  init?: RequestInit
): Promise<Response> {
  const ctx = createExecutionContext()
  const response = await fetch(new Request(new URL(path, 'http://localhost'), init), ctx)
  const body = await response.text()
  await waitOnExecutionContext(ctx)
  return new Response(body, response)
}

/**
 * A new isolate of the site: nothing remembered of earlier requests (recent pages, payload stamps
 * and hashes, the heartbeat, settled placeholders). Every module of src/ is evaluated afresh at its
 * next import (the libraries under node_modules/ are kept: ./site-modules.ts): fetchPage's, and a test's own `await import(...)`; what a test file imported
 * statically stays the old isolate's.
 */
export function newIsolate() {
  forgetSiteModules()
}
