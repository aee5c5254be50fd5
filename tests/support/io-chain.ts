/**
 * The chain of awaited I/O before a response's first byte, counted without a clock: every KV,
 * Cache API and backend call is held at a gate, and the gates are opened in waves. A wave opens
 * every call waiting when the worker has nothing else to do, so calls that run side by side share
 * a wave, and a call that needed the answer of another comes in a later one. The number of waves
 * opened before the response is there is the number of sequential round trips before its first
 * byte (its headers: every page awaits its data before it starts to stream). Afterwards every gate
 * stays open, so background work (stores, refreshes) finishes as usual.
 *
 * Runs inside the Workers runtime (tests/worker): the worker and these gates share one thread, so
 * "nothing else to do" is a few turns of the event loop without a change and without a call under
 * way; no figure here depends on how fast the machine is.
 */
import { vi } from 'vitest'

export type IoKind = 'kv' | 'cache' | 'backend'
/** One awaited call: what it was, and the wave that let it run (0: after the response). */
export type IoCall = { kind: IoKind; name: string; wave: number }

/** Turns of the event loop without any change after which the worker is taken to wait for I/O. */
const QUIET_TURNS = 5
/** Turns after which a request that neither answers nor waits for I/O fails the test. */
const MAX_TURNS = 20_000

export function ioChain() {
  const calls: IoCall[] = []
  const waiting: (() => void)[] = []
  let wave = 0
  let open = false
  const running = new Set<IoCall>()

  /** `run`, once its wave opens; recorded as `kind` `name`. */
  function gated<T>(kind: IoKind, name: string, run: () => Promise<T>): Promise<T> {
    const call: IoCall = { kind, name, wave: 0 }
    calls.push(call)
    const gate = open
      ? Promise.resolve()
      : new Promise<void>((release) =>
          waiting.push(() => {
            call.wave = wave
            release()
          })
        )
    return gate.then(async () => {
      running.add(call)
      try {
        return await run()
      } finally {
        running.delete(call)
      }
    })
  }

  /** Waits until the worker answered, or waits for nothing but gated calls. */
  async function settle(answered: () => boolean) {
    let quiet = 0
    let last = ''
    for (let turn = 0; turn < MAX_TURNS; turn++) {
      if (answered()) return
      await new Promise((resolve) => setTimeout(resolve, 0))
      const state = `${calls.length}:${waiting.length}:${running.size}`
      quiet = running.size === 0 && state === last ? quiet + 1 : 0
      last = state
      if (quiet >= QUIET_TURNS) return
    }
    const under = [...running].map(({ kind, name }) => `${kind} ${name}`).join(', ')
    throw new Error(
      `the worker neither answered nor waited for I/O within ${MAX_TURNS} turns (under way: ${under || 'nothing'})`
    )
  }

  return {
    calls,

    /** The KV namespace with every call gated. */
    kv(namespace: KVNamespace): KVNamespace {
      return new Proxy(namespace, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property)
          if (typeof value !== 'function') return value
          return (...args: unknown[]) =>
            gated('kv', `${String(property)} ${keyName(args[0])}`, () =>
              (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)
            )
        },
      })
    },

    /** Gates `match`, `put` and `delete` of `cache` (caches.default) until the test ends. */
    cache(cache: Cache) {
      for (const method of ['match', 'put', 'delete'] as const) {
        const original = cache[method].bind(cache) as (...args: unknown[]) => Promise<unknown>
        vi.spyOn(cache, method).mockImplementation(((...args: unknown[]) =>
          gated('cache', method, () => original(...args))) as never)
      }
    },

    /** Gates every call of the global fetch (the fake backend lives there) until the test ends. */
    fetch() {
      // A fetch spied on already (the fake backend) is the same spy: keep its implementation.
      const current = globalThis.fetch
      const original = (vi.isMockFunction(current) && current.getMockImplementation()) || current
      vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) =>
        gated(
          'backend',
          new URL(input instanceof Request ? input.url : String(input)).pathname,
          () => original(input, init)
        )
      )
    },

    /**
     * Runs `respond` and opens the gates wave by wave until its response is there: resolves to the
     * response, the waves that took (the sequential round trips before its first byte) and the
     * calls of each wave.
     */
    async measure(respond: () => Response | Promise<Response>) {
      let answered = false
      const response = Promise.resolve(respond()).finally(() => (answered = true))
      for (;;) {
        await settle(() => answered)
        if (answered) break
        if (!waiting.length) throw new Error('the worker waits, but for no gated call')
        wave += 1
        for (const release of waiting.splice(0)) release()
      }
      const depth = wave
      open = true
      // Calls still waiting run after the response: wave 0, as every later call.
      wave = 0
      for (const release of waiting.splice(0)) release()
      const waves = Array.from({ length: depth }, (_, index) =>
        calls.filter((call) => call.wave === index + 1).map(({ kind, name }) => `${kind} ${name}`)
      )
      return { response: await response, depth, waves }
    },
  }
}

function keyName(argument: unknown): string {
  if (typeof argument === 'string') return argument
  if (Array.isArray(argument)) return `[${argument.length} keys]`
  return ''
}
