/**
 * The one recorder of a worker's I/O chains, for the worker tests (tests/worker/page-round-trips.test.ts)
 * and the cold bench (scripts/bench/cold/worker.ts): every KV, Cache API, backend and other binding
 * call of an invocation is recorded with its kind, billable units and where it runs, and, before
 * the response, held at a gate. Gates open in waves, counted without a clock:
 *
 * - a wave opens when the worker has nothing else to do (a few turns of the event loop without a
 *   change and with no call under way), so calls started side by side share a wave and a call that
 *   needed another's answer comes in a later one;
 * - calls local to the Cloudflare location (the Cache API, rate limiters, static assets) are let
 *   through first, in a wave of their own; only when nothing local waits does a wave open the
 *   calls that can leave the location (KV, which may miss the location's copy; the backend; queues;
 *   images). So the chain before the first byte says how many steps could leave the location,
 *   which is what a visitor far from KV's central store waits for (docs/decisions/0041).
 *
 * Once the response is there every gate stays open (wave 0), so background work runs as usual.
 * Runs in Node and in the Workers runtime; no figure depends on the machine's speed.
 */
import { leavesLocation, type IoKind } from './io-locality.mjs'

export type { IoKind } from './io-locality.mjs'

export type IoCall = {
  kind: IoKind
  /** The key, cache address or backend path. */
  target: string
  /** Billable units: keys of a bulk KV read, messages of a queue batch; otherwise 1. */
  units: number
  /** Whether the call can leave the location (false: the location's own cache or limiter). */
  leaves: boolean
  /** The wave that let it run before the response; 0: after the response, or never held. */
  wave: number
  /** Started before the worker returned its response. */
  beforeResponse: boolean
  /** A KV read's cacheTtl, when it names one (KV's default is 60 s). */
  cacheTtl?: number
  /** A Cache API write's lifetime: the max-age of the stored answer's Cache-Control. */
  lifetime?: number
}

/** One step of a chain: the calls one wave let through, and whether it could leave the location. */
export type IoStep = { leaves: boolean; calls: string[] }

/** Turns of the event loop without any change after which the worker is taken to wait for I/O. */
const QUIET_TURNS = 5
/** Turns after which a request that neither answers nor waits for I/O is an error. */
const MAX_TURNS = 20_000

/**
 * A recorder for one invocation. `held: false` records without holding anything (a scheduled run,
 * a queue consumer: no visitor waits for them).
 */
export function ioChain({ held = true } = {}) {
  const calls: IoCall[] = []
  const waiting: { call: IoCall; release: () => void }[] = []
  /** Calls under way, with what they will settle to. */
  const running = new Map<IoCall, Promise<unknown>>()
  const steps: IoStep[] = []
  let open = !held
  let responded = false

  async function settle(answered: () => boolean, response: Promise<unknown>) {
    let quiet = 0
    let last = ''
    for (let turn = 0; turn < MAX_TURNS; turn++) {
      if (answered()) return
      // While a call is under way, wait for it (or the response) rather than turning the loop:
      // the bench profiles the worker's CPU meanwhile.
      if (running.size) await Promise.race([response, ...running.values()]).catch(() => undefined)
      else await new Promise((resolve) => setTimeout(resolve, 0))
      const state = `${calls.length}:${waiting.length}:${running.size}`
      quiet = running.size === 0 && state === last ? quiet + 1 : 0
      last = state
      if (quiet >= QUIET_TURNS) return
    }
    const under = [...running.keys()].map(({ kind, target }) => `${kind} ${target}`).join(', ')
    throw new Error(
      `the worker neither answered nor waited for I/O within ${MAX_TURNS} turns (under way: ${under || 'nothing'})`
    )
  }

  return {
    calls,
    /** The chain before the first byte, once `measure` is done. */
    steps,

    /** `run`, once its wave opens; recorded as `kind` `target`. */
    gated<T>(
      kind: IoKind,
      target: string,
      run: () => Promise<T>,
      detail: Partial<Pick<IoCall, 'units' | 'cacheTtl' | 'lifetime'>> = {}
    ): Promise<T> {
      const call: IoCall = {
        kind,
        target,
        units: detail.units ?? 1,
        leaves: leavesLocation(kind),
        wave: 0,
        beforeResponse: !responded,
        ...(detail.cacheTtl === undefined ? {} : { cacheTtl: detail.cacheTtl }),
        ...(detail.lifetime === undefined ? {} : { lifetime: detail.lifetime }),
      }
      calls.push(call)
      const gate = open
        ? Promise.resolve()
        : new Promise<void>((release) => waiting.push({ call, release }))
      return gate.then(() => {
        const result = run()
        running.set(
          call,
          result.finally(() => running.delete(call)).catch(() => undefined)
        )
        return result
      })
    },

    /** Records a call that waits for nothing (a data point). */
    note(kind: IoKind, target: string, units = 1) {
      calls.push({ kind, target, units, leaves: false, wave: 0, beforeResponse: !responded })
    },

    /**
     * Runs `respond` and opens the gates wave by wave until its response is there: resolves to the
     * response and the chain of steps before its first byte.
     */
    async measure(respond: () => Response | Promise<Response>) {
      let answered = false
      const response = Promise.resolve(respond()).finally(() => (answered = true))
      for (;;) {
        await settle(() => answered, response)
        if (answered) break
        if (!waiting.length) throw new Error('the worker waits, but for no recorded call')
        const local = waiting.filter(({ call }) => !call.leaves)
        const wave = local.length ? local : waiting.slice()
        steps.push({
          leaves: !local.length,
          calls: wave.map(({ call }) => `${call.kind} ${call.target}`),
        })
        for (const entry of wave) {
          waiting.splice(waiting.indexOf(entry), 1)
          entry.call.wave = steps.length
          entry.release()
        }
      }
      responded = true
      open = true
      for (const { release } of waiting.splice(0)) release()
      return { response: await response, steps }
    },
  }
}

export type IoChain = ReturnType<typeof ioChain>

/** The steps of a chain that could leave the location. */
export function stepsLeaving(steps: readonly IoStep[]): number {
  return steps.filter((step) => step.leaves).length
}

/** Where a wrapper finds the recorder of the call's invocation (none: the call is not recorded). */
export type ChainOf = () => IoChain | undefined

function recorded<T>(
  chainOf: ChainOf,
  kind: IoKind,
  target: string,
  run: () => Promise<T>,
  detail?: Partial<Pick<IoCall, 'units' | 'cacheTtl' | 'lifetime'>>
): Promise<T> {
  const chain = chainOf()
  return chain ? chain.gated(kind, target, run, detail) : run()
}

const addressOf = (input: RequestInfo | URL) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url

/** A KV namespace whose reads, writes, deletes and lists are recorded. */
export function recordedKv(kv: KVNamespace, name: string, chainOf: ChainOf): KVNamespace {
  const kinds: Record<string, IoKind> = {
    get: 'kv-read',
    getWithMetadata: 'kv-read',
    put: 'kv-write',
    delete: 'kv-delete',
    list: 'kv-list',
  }
  return new Proxy(kv, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property)
      if (typeof value !== 'function') return value
      const kind = kinds[String(property)]
      if (!kind) return value.bind(target)
      return (key: unknown, ...rest: unknown[]) => {
        const options = rest[0]
        const cacheTtl =
          kind === 'kv-read' && typeof options === 'object' && options !== null
            ? (options as { cacheTtl?: number }).cacheTtl
            : undefined
        const keys = Array.isArray(key) ? key.length : 1
        const label = `${name}:${Array.isArray(key) ? `[${key.length} keys]` : String(key ?? '')}`
        return recorded(
          chainOf,
          kind,
          label,
          () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, [key, ...rest]),
          { units: keys, cacheTtl }
        )
      }
    },
  })
}

/** A cache whose reads, writes and deletes are recorded. */
export function recordedCache(cache: Cache, chainOf: ChainOf): Cache {
  return {
    match: (request, options) =>
      recorded(chainOf, 'cache-read', addressOf(request), () => cache.match(request, options)),
    put: (request, response) => {
      const maxAge = /max-age=(\d+)/.exec(response.headers.get('Cache-Control') ?? '')?.[1]
      return recorded(
        chainOf,
        'cache-write',
        addressOf(request),
        () => cache.put(request, response),
        {
          lifetime: maxAge === undefined ? undefined : Number(maxAge),
        }
      )
    },
    delete: (request, options) =>
      recorded(chainOf, 'cache-delete', addressOf(request), () => cache.delete(request, options)),
  } as Cache
}

/** Replaces the global `caches` with one whose caches are recorded; returns the undo. */
export function recordCaches(chainOf: ChainOf): () => void {
  const real = caches
  const byName = new Map<string, Cache>()
  const replaced = {
    default: recordedCache(real.default, chainOf),
    async open(name: string) {
      let cache = byName.get(name)
      if (!cache) byName.set(name, (cache = recordedCache(await real.open(name), chainOf)))
      return cache
    },
  }
  Object.defineProperty(globalThis, 'caches', { value: replaced, configurable: true })
  return () => Object.defineProperty(globalThis, 'caches', { value: real, configurable: true })
}

/**
 * Replaces the global `fetch`: calls to `backendOrigin()` (every call, when it gives '') are backend
 * calls, others fetches. Returns the undo.
 */
export function recordFetch(chainOf: ChainOf, backendOrigin: () => string = () => ''): () => void {
  const real = globalThis.fetch
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const address = addressOf(input)
    const origin = backendOrigin()
    const kind: IoKind = !origin || address.startsWith(origin) ? 'backend' : 'fetch'
    const label = origin ? address : new URL(address).pathname
    return recorded(chainOf, kind, label, () => real(input, init))
  }) as typeof fetch
  return () => {
    globalThis.fetch = real
  }
}

/** A service binding whose calls are recorded as `kind`. */
export function recordedFetcher<F extends Fetcher>(fetcher: F, kind: IoKind, chainOf: ChainOf): F {
  return new Proxy(fetcher, {
    get(target, property) {
      if (property === 'fetch')
        return (input: RequestInfo | URL, init?: RequestInit) =>
          recorded(chainOf, kind, addressOf(input), () => target.fetch(input, init))
      const value: unknown = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** A queue whose messages are recorded (one unit per message). */
export function recordedQueue<Q extends Queue>(queue: Q, name: string, chainOf: ChainOf): Q {
  return new Proxy(queue, {
    get(target, property) {
      if (property === 'send')
        return (body: unknown, options?: QueueSendOptions) =>
          recorded(chainOf, 'queue', name, () => target.send(body, options))
      if (property === 'sendBatch')
        return (messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) => {
          const list = [...messages]
          return recorded(chainOf, 'queue', name, () => target.sendBatch(list, options), {
            units: list.length,
          })
        }
      const value: unknown = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** An Analytics Engine dataset whose data points are counted. */
export function recordedDataset(
  dataset: AnalyticsEngineDataset,
  name: string,
  chainOf: ChainOf
): AnalyticsEngineDataset {
  return {
    writeDataPoint(point?: AnalyticsEngineDataPoint) {
      chainOf()?.note('analytics', name)
      dataset.writeDataPoint(point)
    },
  } as AnalyticsEngineDataset
}

/** A rate limiter whose checks are recorded. */
export function recordedRateLimit<R extends { limit: (options: { key: string }) => unknown }>(
  limiter: R,
  name: string,
  chainOf: ChainOf
): R {
  return {
    limit: (options: { key: string }) =>
      recorded(chainOf, 'ratelimit', name, async () => limiter.limit(options)),
  } as unknown as R
}

/** The Images binding: each transform's output (one transformation) and each info call recorded. */
export function recordedImages(images: ImagesBinding, chainOf: ChainOf): ImagesBinding {
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
            recorded(chainOf, 'images', 'transform', () => target.output(options))
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
          recorded(chainOf, 'images', 'info', () => target.info(...args))
      const value: unknown = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
