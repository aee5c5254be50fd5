/**
 * The cold bench's worker entry (scripts/bench/cold.mjs): the site's own worker (src/index.ts),
 * unchanged, behind bindings that record every I/O operation (scripts/lib/io-chain.ts, the recorder
 * the worker tests use too): each request's calls are held and released in waves, the location's
 * own first, until its response is there. Run only by the
 * bench, with the site's wrangler.toml (`wrangler dev scripts/bench/cold/worker.ts -c wrangler.toml
 * ...`); never deployed.
 *
 * Besides the site it answers, on this worker alone:
 * - GET /__bench/cold/trace/<id>: the operations of the request sent with `X-Bench-Trace: <id>`,
 *   and whether its background work (waitUntil) has settled; /__bench/cold/settled/<id>: only that;
 * - GET /__bench/cold/since/<n>: every invocation recorded after the n-th (a content change's
 *   publish hook and the queue consumers it set off), /__bench/cold/settled-since/<n>: how many and
 *   whether all have settled, and GET /__bench/cold/count: how many there are in all.
 * The version id is the same on every start, and every request names BENCH_ORIGIN, as a new isolate
 * of one deployment on one host sees them.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import site from '../../../src/index'
import type { Bindings } from '../../../src/env'
import {
  ioChain,
  recordCaches,
  recordedDataset,
  recordedFetcher,
  recordedImages,
  recordedKv,
  recordedQueue,
  recordedRateLimit,
  recordFetch,
  stepsLeaving,
  type IoCall,
  type IoChain,
  type IoStep,
} from '../../lib/io-chain'

type BenchBindings = Bindings & { BENCH_ORIGIN?: string }

/**
 * One invocation as the bench reads it: its calls, the chain before its response (and how many of
 * its steps can leave the location, once it has responded), its background work.
 */
type Trace = {
  id: string
  label: string
  records: IoCall[]
  steps: IoStep[]
  leaving: number
  responded: boolean
  pending: number
  settled: boolean
}

const storage = new AsyncLocalStorage<IoChain>()
const chainOf = () => storage.getStore()
const finished: Trace[] = []
const MAX_TRACES = 200

let currentApiHost = ''
recordCaches(chainOf)
recordFetch(chainOf, () => currentApiHost || 'no backend origin')

const PREFIX = '/__bench/cold/'
let invocations = 0

function newTrace(id: string, label: string, chain: IoChain): Trace {
  const trace: Trace = {
    id,
    label,
    records: chain.calls,
    steps: chain.steps,
    leaving: 0,
    responded: false,
    pending: 0,
    settled: false,
  }
  finished.push(trace)
  if (finished.length > MAX_TRACES) finished.shift()
  return trace
}

const traceById = (id: string) => finished.find((trace) => trace.id === id)
const tracesSince = (index: number) => finished.slice(index)

function recordedEnv(env: BenchBindings): Bindings {
  currentApiHost = env.API_HOST ? env.API_HOST.replace(/\/+$/, '') : ''
  return {
    ...env,
    // One version across the bench's restarts: `wrangler dev` gives each start a version id of
    // its own, and the page cache's key names the version (a deploy starts with an empty cache),
    // where a new isolate of the same deployment keeps it.
    CF_VERSION_METADATA: { ...env.CF_VERSION_METADATA, id: 'bench-cold' },
    CONTENT_CACHE: recordedKv(env.CONTENT_CACHE, 'CONTENT_CACHE', chainOf),
    CONTACT_OUTBOX: recordedKv(env.CONTACT_OUTBOX, 'CONTACT_OUTBOX', chainOf),
    CONTENT: recordedFetcher(env.CONTENT, 'backend', chainOf),
    ASSETS: recordedFetcher(env.ASSETS, 'assets', chainOf),
    IMAGES: recordedImages(env.IMAGES, chainOf),
    REPURGE_QUEUE: recordedQueue(env.REPURGE_QUEUE, 'REPURGE_QUEUE', chainOf),
    CONTACT_QUEUE: recordedQueue(env.CONTACT_QUEUE, 'CONTACT_QUEUE', chainOf),
    VITALS: env.VITALS ? recordedDataset(env.VITALS, 'VITALS', chainOf) : env.VITALS,
    CONTACT_RATE_LIMITER: recordedRateLimit(
      env.CONTACT_RATE_LIMITER,
      'CONTACT_RATE_LIMITER',
      chainOf
    ),
    PUBLISH_RATE_LIMITER: recordedRateLimit(
      env.PUBLISH_RATE_LIMITER,
      'PUBLISH_RATE_LIMITER',
      chainOf
    ),
    IMAGE_RATE_LIMITER: recordedRateLimit(env.IMAGE_RATE_LIMITER, 'IMAGE_RATE_LIMITER', chainOf),
    TELEMETRY_RATE_LIMITER: recordedRateLimit(
      env.TELEMETRY_RATE_LIMITER,
      'TELEMETRY_RATE_LIMITER',
      chainOf
    ),
  }
}

/** Counts a waitUntil promise; the trace is settled when every one has. */
function holdOpen(trace: Trace, promise: Promise<unknown>): Promise<unknown> {
  trace.pending++
  return promise.finally(() => {
    trace.pending--
    if (trace.pending === 0 && trace.responded) trace.settled = true
  })
}

function recordedCtx(ctx: ExecutionContext, trace: Trace): ExecutionContext {
  return {
    waitUntil: (promise: Promise<unknown>) => ctx.waitUntil(holdOpen(trace, promise)),
    passThroughOnException: () => ctx.passThroughOnException(),
    props: ctx.props,
  } as ExecutionContext
}

function settleIfIdle(trace: Trace) {
  trace.leaving = stepsLeaving(trace.steps)
  trace.responded = true
  if (trace.pending === 0) trace.settled = true
}

function benchAnswer(pathname: string): Response {
  const rest = pathname.slice(PREFIX.length)
  if (rest === 'count') return Response.json({ count: finished.length })
  // Polled while the profiler runs: small answers, so polling costs the isolate little CPU.
  if (rest.startsWith('settled/')) {
    const trace = traceById(decodeURIComponent(rest.slice(8)))
    return Response.json({ settled: trace?.settled === true })
  }
  if (rest.startsWith('settled-since/')) {
    const traces = tracesSince(Number(rest.slice(14)) || 0)
    return Response.json({
      invocations: traces.length,
      settled: traces.every((trace) => trace.settled),
    })
  }
  if (rest.startsWith('since/')) return Response.json(tracesSince(Number(rest.slice(6)) || 0))
  if (rest.startsWith('trace/')) {
    const trace = traceById(decodeURIComponent(rest.slice(6)))
    return trace ? Response.json(trace) : Response.json({ error: 'no such trace' }, { status: 404 })
  }
  return Response.json({ error: `no bench address ${pathname}` }, { status: 404 })
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url)
    if (url.pathname.startsWith(PREFIX)) return benchAnswer(url.pathname)
    const id = request.headers.get('X-Bench-Trace') ?? `request-${++invocations}`
    const chain = ioChain()
    const trace = newTrace(id, `${request.method} ${url.pathname}`, chain)
    // The site's one address: each start of `wrangler dev` has a port of its own, and the page
    // cache's key is the page's address.
    const asVisited = env.BENCH_ORIGIN
      ? new Request(`${env.BENCH_ORIGIN}${url.pathname}${url.search}`, request)
      : request
    return storage.run(chain, async () => {
      try {
        const { response } = await chain.measure(() =>
          site.fetch(asVisited, recordedEnv(env), recordedCtx(ctx, trace))
        )
        return response
      } finally {
        settleIfIdle(trace)
      }
    })
  },
  async scheduled(controller, env, ctx) {
    const chain = ioChain({ held: false })
    const trace = newTrace(`scheduled-${++invocations}`, `scheduled ${controller.cron}`, chain)
    await storage.run(chain, () =>
      site.scheduled(controller, recordedEnv(env), recordedCtx(ctx, trace))
    )
    settleIfIdle(trace)
  },
  async queue(batch, env, ctx) {
    const chain = ioChain({ held: false })
    const trace = newTrace(`queue-${++invocations}`, `queue ${batch.queue}`, chain)
    await storage.run(chain, () => site.queue(batch, recordedEnv(env), recordedCtx(ctx, trace)))
    settleIfIdle(trace)
  },
} satisfies ExportedHandler<BenchBindings>
