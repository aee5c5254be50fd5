/**
 * What the freshness tests watch: KV writes per key (a recording wrapper around the real
 * CONTENT_CACHE), and what is purged through the Workers Cache seam (a recording `ctx.cache`,
 * which the test pool does not provide).
 */
import { createExecutionContext } from 'cloudflare:test'
import type { Bindings } from '../../../src/env'

/** The bindings with CONTENT_CACHE wrapped so that every put and delete is recorded by key. */
export function recordingKv(bindings: Bindings) {
  const writes: string[] = []
  const kv = bindings.CONTENT_CACHE
  const recording = new Proxy(kv, {
    get(target, property) {
      if (property === 'put' || property === 'delete') {
        return (key: string, ...rest: unknown[]) => {
          writes.push(key)
          return (Reflect.get(target, property) as (...args: unknown[]) => Promise<void>).call(
            target,
            key,
            ...rest
          )
        }
      }
      const value: unknown = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return {
    bindings: { ...bindings, CONTENT_CACHE: recording } as Bindings,
    writes,
    /** Writes to payload keys, by the endpoint at the end of the key. */
    payloadWrites: () => writes.filter((key) => key.startsWith('payload:')),
  }
}

/** An execution context whose `cache` records the tags purged, as Workers Cache would be asked. */
export function contextWithWorkersCache(options: { fail?: boolean } = {}) {
  const purged: string[][] = []
  const ctx = createExecutionContext()
  const cache: CacheContext = {
    async purge({ tags = [] }) {
      purged.push([...tags])
      return options.fail
        ? { success: false, errors: [{ code: 1, message: 'purge refused' }] }
        : { success: true, errors: [] }
    },
    async invalidate() {
      return { success: true, errors: [] }
    },
  }
  Object.defineProperty(ctx, 'cache', { value: cache })
  return { ctx, purged, tags: () => purged.flat().sort() }
}
