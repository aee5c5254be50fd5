/**
 * Server error reporting with toucan-js (Sentry for Workers): uncaught errors from the error
 * handler and failed backend calls from the content client. Each event carries the release, the
 * route (without its language prefix) and the language as tags. Without SENTRY_DSN nothing is
 * created and nothing is sent.
 *
 * One Toucan per request, made on first use: it holds the request (for the event's URL and
 * method; headers other than CF-Ray and User-Agent, cookies and IPs are not sent) and sends
 * through `waitUntil`, so reporting never delays the response.
 *
 * toucan-js (with the Sentry SDK in it) is loaded on the first report, not when a new isolate
 * starts: a request that reports nothing never needs it (decision 0033).
 */
import type { Context } from 'hono'
import type { Toucan } from 'toucan-js'
import type { AppEnv, Bindings } from '../env'
import { splitLanguagePrefix } from '../shared/languages'

/** What went wrong: an error no handler expected, or a backend call that gave no payload. */
export type ErrorKind = 'unexpected' | 'backend'

const RELEASE_FALLBACK = 'unversioned'
const clients = new WeakMap<Request, Promise<Toucan>>()
const loadToucan = () => import('toucan-js').then((module) => module.Toucan)
/**
 * Errors already sent: a render error is seen by the renderer's onError and, when it escaped every
 * section boundary, by app.onError as well; it is one event.
 */
const reported = new WeakSet<object>()

/** Sends `error` to Sentry with the request's tags; a no-op when SENTRY_DSN is not set. */
export function reportError(
  c: Context<AppEnv>,
  error: unknown,
  kind: ErrorKind,
  tags: Record<string, string> = {}
): void {
  const sentry = sentryFor(c)
  if (!sentry) return
  if (typeof error === 'object' && error !== null) {
    if (reported.has(error)) return
    reported.add(error)
  }
  const captured = sentry.then((client) =>
    client.withScope((scope) => {
      scope.setTags({ kind, ...tags })
      scope.captureException(error)
    })
  )
  executionContextOf(c)?.waitUntil(captured)
}

/**
 * Sends `error` from work that has no request: the Cron Trigger's run (the scheduled refresh is the
 * one caller of the backend for page payloads, so its failures are the backend failures to see)
 * and the queue consumers (`route` and `kind` in `tags` say which).
 */
export function reportBackgroundError(
  env: Bindings,
  ctx: ExecutionContext,
  error: unknown,
  tags: Record<string, string> = {}
): void {
  const dsn = env.SENTRY_DSN?.trim()
  if (!dsn) return
  const release = releaseOf(env)
  ctx.waitUntil(
    loadToucan().then((Toucan) => {
      const sentry = new Toucan({
        dsn,
        release,
        context: ctx,
        transportOptions: { fetcher: sendQuietly },
      })
      sentry.setTags({ release, route: 'scheduled', kind: 'backend', ...tags })
      sentry.captureException(error)
    })
  )
}

/** RELEASE when the deploy sets it, else the Workers version id (wrangler.toml [version_metadata]). */
function releaseOf(env: Bindings): string {
  return env.RELEASE?.trim() || env.CF_VERSION_METADATA?.id || RELEASE_FALLBACK
}

function sentryFor(c: Context<AppEnv>): Promise<Toucan> | null {
  const dsn = c.env.SENTRY_DSN?.trim()
  if (!dsn) return null
  const existing = clients.get(c.req.raw)
  if (existing) return existing
  const release = releaseOf(c.env)
  const tags = { release, route: routeOf(c), lng: c.var.lng ?? 'hy' }
  const sentry = loadToucan().then((Toucan) => {
    const client = new Toucan({
      dsn,
      release,
      context: executionContextOf(c),
      request: c.req.raw,
      requestDataOptions: { allowedHeaders: ['CF-Ray', 'User-Agent'], allowedSearchParams: false },
      transportOptions: { fetcher: sendQuietly },
    })
    client.setTags(tags)
    return client
  })
  clients.set(c.req.raw, sentry)
  return sentry
}

/**
 * fetch for the transport that never rejects: toucan hands the send to `waitUntil` as it is, and
 * an unreachable Sentry should cost a log line, not an unhandled rejection.
 */
const sendQuietly: typeof fetch = (input, init) =>
  fetch(input, init).catch((error: unknown) => {
    console.warn(`sentry: event not sent: ${String(error)}`)
    return new Response(null, { status: 503 })
  })

/** The matched route pattern without its language prefix ('/en/about' -> '/about'): few distinct values. */
function routeOf(c: Context<AppEnv>): string {
  try {
    return splitLanguagePrefix(c.req.routePath).path
  } catch {
    return 'unknown'
  }
}

function executionContextOf(c: Context<AppEnv>) {
  try {
    return c.executionCtx
  } catch {
    // No execution context (a direct app.request() call): the event is sent without waitUntil.
    return undefined
  }
}
