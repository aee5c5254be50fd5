/**
 * The bench's recorders of a worker's I/O (scripts/bench/cold.mjs): every KV read and write, Cache
 * API read and write, backend call, image transform, queue message and Analytics Engine data point,
 * recorded in the invocation that made it, with the order it ran in. Only the bench's own worker
 * entry (./worker.ts) wraps bindings with them; production code never sees them.
 *
 * The chain before the first byte: an operation's depth is one more than the deepest operation that
 * had completed when it started. Only operations answered before the response count: one still
 * under way when the worker returned its response (a payload's store, written behind a full miss
 * while the page renders) was not awaited by it. Operations started side by side (before either completed) share a
 * depth; one that waited for another's answer is one deeper. Every recorded round trip answers
 * `roundTripMs` after it started (or when the real call does, if later), as on a network where
 * every round trip takes about as long: calls started together answer together, so a call that
 * answered first cannot make an independent one started after it look sequential, and a few
 * milliseconds of other awaited work (hashing, a stream) are small beside it.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

/** What an operation is, for the model: each kind has its own latency and price. */
export type IoKind =
  | 'kv-read'
  | 'kv-write'
  | 'kv-delete'
  | 'kv-list'
  | 'cache-read'
  | 'cache-write'
  | 'cache-delete'
  | 'backend'
  | 'fetch'
  | 'images'
  | 'queue'
  | 'analytics'
  | 'ratelimit'
  | 'assets'

export type IoRecord = {
  kind: IoKind
  /** The key, cache address or backend path. */
  target: string
  /** Billable units: keys of a bulk KV read, messages of a queue batch; otherwise 1. */
  units: number
  /** 1 + the deepest operation completed when this one started; 0 for those that wait for nothing (data points). */
  depth: number
  /** Started before the worker returned its response. */
  beforeResponse: boolean
  /** Answered before the worker returned its response: the response may have waited for it. */
  answeredBeforeResponse: boolean
  done: boolean
  /** A KV read's cacheTtl, when it names one (KV's default is 60 s). */
  cacheTtl?: number
  /** A Cache API write's lifetime: the max-age of the stored answer's Cache-Control. */
  lifetime?: number
}

export type Trace = {
  id: string
  label: string
  records: IoRecord[]
  responded: boolean
  pending: number
  settled: boolean
}

const storage = new AsyncLocalStorage<Trace>()
const finished: Trace[] = []
const MAX_TRACES = 200
let roundTripMs = 200

/** Milliseconds after its start at which every recorded round trip answers. */
export function setRoundTripMs(ms: number) {
  roundTripMs = ms
}

export function newTrace(id: string, label: string): Trace {
  const trace: Trace = { id, label, records: [], responded: false, pending: 0, settled: false }
  finished.push(trace)
  if (finished.length > MAX_TRACES) finished.shift()
  return trace
}

/** Runs `work` with `trace` as the invocation's trace. */
export function withTrace<T>(trace: Trace, work: () => T): T {
  return storage.run(trace, work)
}

export function traceById(id: string): Trace | undefined {
  return finished.find((trace) => trace.id === id)
}

/** Every trace whose label starts with `prefix`, e.g. all invocations since a content change. */
export function tracesSince(index: number): Trace[] {
  return finished.slice(index)
}

export function traceCount(): number {
  return finished.length
}

function depthNow(trace: Trace): number {
  return trace.records.reduce(
    (deepest, record) => (record.done && record.depth > deepest ? record.depth : deepest),
    0
  )
}

/** Records a round trip: `call` runs at once, its answer is held for roundTripMs. */
async function roundTrip<T>(
  kind: IoKind,
  target: string,
  call: () => Promise<T>,
  units = 1,
  detail: Pick<IoRecord, 'cacheTtl' | 'lifetime'> = {}
): Promise<T> {
  const trace = storage.getStore()
  if (!trace) return call()
  const record: IoRecord = {
    kind,
    target,
    units,
    depth: depthNow(trace) + 1,
    beforeResponse: !trace.responded,
    answeredBeforeResponse: false,
    done: false,
    ...detail,
  }
  trace.records.push(record)
  const started = Date.now()
  try {
    const result = await call()
    // workerd's clock moves on at I/O, so this is the real call's time.
    const left = roundTripMs - (Date.now() - started)
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left))
    return result
  } finally {
    record.done = true
    record.answeredBeforeResponse = !trace.responded
  }
}

/** Records an operation that waits for nothing (a data point, a queued message's count). */
function note(kind: IoKind, target: string, units = 1) {
  const trace = storage.getStore()
  trace?.records.push({
    kind,
    target,
    units,
    depth: 0,
    beforeResponse: !trace.responded,
    answeredBeforeResponse: !trace.responded,
    done: true,
  })
}

/** A KV namespace whose reads, writes, deletes and lists are recorded. */
export function recordedKv(kv: KVNamespace, name: string): KVNamespace {
  const wrap =
    (kind: IoKind, method: string) =>
    (key: unknown, ...rest: unknown[]) => {
      const keys = Array.isArray(key) ? key.length : 1
      const target = `${name}:${Array.isArray(key) ? `[${key.length} keys]` : String(key ?? '')}`
      const real = (kv as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[
        method
      ]!
      const options = rest[0]
      const cacheTtl =
        kind === 'kv-read' && typeof options === 'object' && options !== null
          ? (options as { cacheTtl?: number }).cacheTtl
          : undefined
      return roundTrip(kind, target, () => real.call(kv, key, ...rest), keys, { cacheTtl })
    }
  return new Proxy(kv, {
    get(target, property) {
      if (property === 'get' || property === 'getWithMetadata')
        return wrap('kv-read', property as string)
      if (property === 'put') return wrap('kv-write', 'put')
      if (property === 'delete') return wrap('kv-delete', 'delete')
      if (property === 'list') return wrap('kv-list', 'list')
      const value: unknown = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

function recordedCache(cache: Cache): Cache {
  const url = (request: RequestInfo | URL) =>
    typeof request === 'string' ? request : request instanceof URL ? request.href : request.url
  return {
    match: (request, options) =>
      roundTrip('cache-read', url(request), () => cache.match(request, options)),
    put: (request, response) => {
      const maxAge = /max-age=(\d+)/.exec(response.headers.get('Cache-Control') ?? '')?.[1]
      const lifetime = maxAge === undefined ? undefined : Number(maxAge)
      return roundTrip('cache-write', url(request), () => cache.put(request, response), 1, {
        lifetime,
      })
    },
    delete: (request, options) =>
      roundTrip('cache-delete', url(request), () => cache.delete(request, options)),
  } as Cache
}

/** Replaces the global `caches` with one whose caches record every read and write. */
export function recordCacheApi() {
  const real = caches
  const byName = new Map<string, Cache>()
  const recorded = {
    default: recordedCache(real.default),
    async open(name: string) {
      let cache = byName.get(name)
      if (!cache) byName.set(name, (cache = recordedCache(await real.open(name))))
      return cache
    },
  }
  Object.defineProperty(globalThis, 'caches', { value: recorded, configurable: true })
}

/** Replaces the global `fetch`: calls to `backendOrigin` count as backend calls, others as fetches. */
export function recordGlobalFetch(backendOrigin: () => string) {
  const real = globalThis.fetch
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const address =
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const origin = backendOrigin()
    const kind: IoKind = origin && address.startsWith(origin) ? 'backend' : 'fetch'
    return roundTrip(kind, address, () => real(input, init))
  }) as typeof fetch
}

/** A service binding whose calls are recorded as `kind`. */
export function recordedFetcher<F extends Fetcher>(fetcher: F, kind: IoKind): F {
  return new Proxy(fetcher, {
    get(target, property) {
      if (property === 'fetch')
        return (input: RequestInfo | URL, init?: RequestInit) => {
          const address =
            typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
          return roundTrip(kind, address, () => target.fetch(input, init))
        }
      const value: unknown = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** A queue whose messages are recorded (one unit per message). */
export function recordedQueue<Q extends Queue>(queue: Q, name: string): Q {
  return new Proxy(queue, {
    get(target, property) {
      if (property === 'send')
        return (body: unknown, options?: QueueSendOptions) =>
          roundTrip('queue', name, () => target.send(body, options))
      if (property === 'sendBatch')
        return (messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) => {
          const list = [...messages]
          return roundTrip('queue', name, () => target.sendBatch(list, options), list.length)
        }
      const value: unknown = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** An Analytics Engine dataset whose data points are counted. */
export function recordedDataset(dataset: AnalyticsEngineDataset, name: string) {
  return {
    writeDataPoint(point?: AnalyticsEngineDataPoint) {
      note('analytics', name)
      dataset.writeDataPoint(point)
    },
  } as AnalyticsEngineDataset
}

/** A rate limiter whose checks are recorded. */
export function recordedRateLimit<R extends { limit: (options: { key: string }) => unknown }>(
  limiter: R,
  name: string
): R {
  return {
    limit: (options: { key: string }) =>
      roundTrip('ratelimit', name, async () => limiter.limit(options)),
  } as unknown as R
}

/** The Images binding: each transform's output (one transformation) and each info call recorded. */
export function recordedImages(images: ImagesBinding): ImagesBinding {
  const transformer = (real: ImageTransformer): ImageTransformer =>
    new Proxy(real, {
      get(target, property) {
        if (property === 'transform' || property === 'draw')
          return (...args: unknown[]) =>
            transformer(
              (target as unknown as Record<string, (...a: unknown[]) => ImageTransformer>)[
                property
              ]!.apply(target, args)
            )
        if (property === 'output')
          return (options: ImageOutputOptions) =>
            roundTrip('images', 'transform', () => target.output(options))
        const value: unknown = Reflect.get(target, property)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  return new Proxy(images, {
    get(target, property) {
      if (property === 'input')
        return (...args: Parameters<ImagesBinding['input']>) => transformer(target.input(...args))
      if (property === 'info')
        return (...args: Parameters<ImagesBinding['info']>) =>
          roundTrip('images', 'info', () => target.info(...args))
      const value: unknown = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** Marks the trace's response as sent: operations after it are not before the first byte. */
export function responded(trace: Trace) {
  trace.responded = true
}

/** Counts a waitUntil promise; the trace is settled when every one has. */
export function holdOpen(trace: Trace, promise: Promise<unknown>): Promise<unknown> {
  trace.pending++
  return promise.finally(() => {
    trace.pending--
    if (trace.pending === 0 && trace.responded) trace.settled = true
  })
}
