import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createPayloadCache } from '../../src/freshness/payload-cache'
import { ContentError } from '../../src/content/errors'
import { newIsolate } from '../support/worker/worker'

let keyCounter = 0
/** Accepts any stored payload as it is. */
const same = <T>(stored: unknown) => stored as T
const freshKey = () => `test:cache:${++keyCounter}:${Math.random()}`

/** createPayloadCache of a new isolate: nothing in memory of earlier reads (tests/support/worker/worker.ts). */
async function inNewIsolate(): Promise<typeof createPayloadCache> {
  newIsolate()
  return (await import('../../src/freshness/payload-cache')).createPayloadCache
}

/**
 * A cache over the real KV binding with a hand-moved clock and collected background work.
 * `refreshesOnRequest`: as where no scheduled refresh runs (wrangler dev); false: as in production.
 */
function setup(
  ttlSeconds = 60,
  refreshesOnRequest = true,
  schemaVersion?: string,
  create = createPayloadCache
) {
  let clock = 1_000_000
  const background: Promise<unknown>[] = []
  const errors: unknown[] = []
  const changed: string[] = []
  const cache = create({
    kv: env.CONTENT_CACHE,
    ttlSeconds,
    deadlineMs: 100,
    now: () => clock,
    waitUntil: (promise) => background.push(promise),
    onError: (_key, error) => errors.push(error),
    refreshesOnRequest: async () => refreshesOnRequest,
    onChanged: (key) => changed.push(key),
    schemaVersion,
  })
  return {
    cache,
    errors,
    changed,
    advance: (ms: number) => (clock += ms),
    settle: async () => {
      while (background.length) await Promise.allSettled(background.splice(0))
    },
  }
}

function counter<T>(value: T) {
  let calls = 0
  const load = async () => {
    calls++
    return value
  }
  return { load, calls: () => calls }
}

describe('payload cache', () => {
  it('loads on a miss and stores the payload in KV', async () => {
    const { cache, settle } = setup()
    const key = freshKey()
    const loader = counter({ title: 'A' })
    expect(await cache.read(key, loader.load, same)).toEqual({ title: 'A' })
    await settle()
    const stored = await env.CONTENT_CACHE.get<{ payload: unknown }>(key, 'json')
    expect(stored?.payload).toEqual({ title: 'A' })
  })

  it('serves a fresh entry without calling the backend', async () => {
    const { cache, settle, advance } = setup(60)
    const key = freshKey()
    const loader = counter('v1')
    await cache.read(key, loader.load, same)
    await settle()
    advance(59_000)
    expect(await cache.read(key, loader.load, same)).toBe('v1')
    await settle()
    expect(loader.calls()).toBe(1)
  })

  it('serves an entry aged past the TTL and, where no scheduled refresh runs, has the current payload for the next visit', async () => {
    const { cache, settle, advance } = setup(60)
    const key = freshKey()
    await cache.read(key, async () => 'old', same)
    await settle()
    advance(61_000)
    const fresh = counter('new')
    expect(await cache.read(key, fresh.load, same)).toBe('old')
    await settle()
    expect(fresh.calls()).toBe(1)
    expect(await cache.read(key, fresh.load, same)).toBe('new')
  })

  it('only reads an entry aged past the TTL while the scheduled refresh runs: no backend call, no KV write', async () => {
    const { cache, settle, advance } = setup(60, false)
    const key = freshKey()
    await cache.read(key, async () => 'old', same)
    await settle()
    const before = await env.CONTENT_CACHE.get(key)
    advance(10 * 60_000)
    const loader = counter('new')
    expect(await cache.read(key, loader.load, same)).toBe('old')
    await settle()
    expect(loader.calls()).toBe(0)
    expect(await env.CONTENT_CACHE.get(key)).toBe(before)
  })

  it('still fills a key that does not exist yet while the scheduled refresh runs', async () => {
    const { cache, settle } = setup(60, false)
    const key = freshKey()
    expect(await cache.read(key, async () => 'first', same)).toBe('first')
    await settle()
    expect((await env.CONTENT_CACHE.get<{ payload: unknown }>(key, 'json'))?.payload).toBe('first')
  })

  it('says when a request-side refresh changed the payload, and not when it stored the same content', async () => {
    const { cache, settle, advance, changed } = setup(60)
    const key = freshKey()
    await cache.read(key, async () => ({ title: 'A' }), same)
    await settle()
    expect(changed).toEqual([key])
    advance(61_000)
    await cache.read(key, async () => ({ title: 'A' }), same)
    await settle()
    expect(changed).toEqual([key])
    advance(61_000)
    await cache.read(key, async () => ({ title: 'B' }), same)
    await settle()
    expect(changed).toEqual([key, key])
  })

  it('refreshes on demand: stores the payload with its hash and tells whether the content changed', async () => {
    const { cache } = setup(60)
    const key = freshKey()
    expect(await cache.refresh(key, async () => ({ n: 1 }))).toBe('changed')
    const first = await cache.stampOf(key)
    expect(await cache.refresh(key, async () => ({ n: 1 }))).toBe('unchanged')
    expect((await cache.stampOf(key))?.hash).toBe(first?.hash)
    expect(await cache.refresh(key, async () => ({ n: 2 }))).toBe('changed')
    expect((await cache.stampOf(key))?.hash).not.toBe(first?.hash)
  })

  it('writes nothing when a refresh fails: the last good payload stays', async () => {
    const { cache, advance } = setup(60)
    const key = freshKey()
    await cache.refresh(key, async () => 'good')
    const before = await env.CONTENT_CACHE.get(key)
    advance(3_600_000)
    await expect(
      cache.refresh(key, async () => Promise.reject(new ContentError('status', 'HTTP 500', 500)))
    ).rejects.toMatchObject({ failure: 'status' })
    expect(await env.CONTENT_CACHE.get(key)).toBe(before)
  })

  it('records when the content last changed: a refresh with the same content keeps that time', async () => {
    const { cache, advance } = setup(300)
    const key = freshKey()
    expect(await cache.stampOf(key)).toBeNull()
    await cache.refresh(key, async () => 'x')
    const first = await cache.stampOf(key)
    expect(first?.changedAt).toBe(first?.storedAt)
    advance(300_000)
    await cache.refresh(key, async () => 'x')
    const same = await cache.stampOf(key)
    expect(same?.storedAt).toBe(first!.storedAt + 300_000)
    expect(same?.changedAt).toBe(first?.changedAt)
    advance(300_000)
    await cache.refresh(key, async () => 'y')
    expect((await cache.stampOf(key))?.changedAt).toBe(first!.storedAt + 600_000)
  })

  it('keeps serving the stale entry while the backend fails', async () => {
    const { cache, settle, advance, errors } = setup(60)
    const key = freshKey()
    await cache.read(key, async () => 'kept', same)
    await settle()
    advance(120_000)
    const failing = async () => {
      throw new ContentError('status', 'HTTP 500', 500)
    }
    expect(await cache.read(key, failing, same)).toBe('kept')
    await settle()
    expect(await cache.read(key, failing, same)).toBe('kept')
    await settle()
    expect(errors.length).toBeGreaterThanOrEqual(2)
  })

  it('throws the backend error on a miss with nothing cached', async () => {
    const { cache } = setup()
    await expect(
      cache.read(
        freshKey(),
        async () => {
          throw new ContentError('malformed', 'not JSON')
        },
        same
      )
    ).rejects.toMatchObject({ failure: 'malformed' })
  })

  it('makes one backend call for concurrent misses of the same key', async () => {
    const { cache, settle } = setup()
    const key = freshKey()
    let calls = 0
    const slow = () =>
      new Promise<string>((resolve) => {
        calls++
        setTimeout(() => resolve('shared'), 20)
      })
    const results = await Promise.all([
      cache.read(key, slow, same),
      cache.read(key, slow, same),
      cache.read(key, slow, same),
    ])
    await settle()
    expect(results).toEqual(['shared', 'shared', 'shared'])
    expect(calls).toBe(1)
  })

  it('gives up on a shared call that outlives the waiter deadline', async () => {
    const { cache } = setup()
    const key = freshKey()
    const never = () => new Promise<string>(() => {})
    const first = cache.read(key, never, same)
    first.catch(() => undefined)
    await expect(cache.read(key, never, same)).rejects.toMatchObject({ failure: 'timeout' })
  })

  it('treats a stored payload that fails validation as a miss', async () => {
    const { cache } = setup()
    const key = freshKey()
    await env.CONTENT_CACHE.put(
      key,
      JSON.stringify({ storedAt: 1_000_000, payload: { shape: 'old' } })
    )
    const strict = (stored: unknown) => {
      if (typeof stored !== 'string') throw new TypeError('not a string')
      return stored
    }
    expect(await cache.read(key, async () => 'reloaded', strict)).toBe('reloaded')
  })

  it('reads through a corrupt KV entry as a miss', async () => {
    const { cache } = setup()
    const key = freshKey()
    await env.CONTENT_CACHE.put(key, 'not json at all')
    expect(await cache.read(key, async () => 'reloaded', same)).toBe('reloaded')
  })
})

describe('stored payloads are trusted', () => {
  /** A validation that counts its calls and marks what it returns, like the schemas' sanitizer. */
  function countingValidation() {
    let calls = 0
    type Validated = { title?: string; validated?: boolean }
    const validate = (stored: unknown): Validated => {
      calls++
      return { ...(stored as Validated), validated: true }
    }
    return { validate, calls: () => calls }
  }

  it('stores each payload with the schema version that validated it, and reads it back without validating it again', async () => {
    const { cache, settle } = setup(60, true, 'schema-7')
    const key = freshKey()
    const validation = countingValidation()
    await cache.read(
      key,
      async (): Promise<{ title?: string }> => ({ title: 'A' }),
      validation.validate
    )
    await settle()
    expect(await env.CONTENT_CACHE.get<{ schema: string }>(key, 'json')).toMatchObject({
      schema: 'schema-7',
      payload: { title: 'A' },
    })
    for (let render = 0; render < 5; render++)
      expect(
        await cache.read(
          key,
          async (): Promise<{ title?: string }> => ({ title: 'B' }),
          validation.validate
        )
      ).toEqual({ title: 'A' })
    expect(validation.calls()).toBe(0)
  })

  it('validates an entry of another schema version on its first read in an isolate, and serves what validation made of it', async () => {
    const key = freshKey()
    const validation = countingValidation()
    for (const schema of [undefined, 'schema-7']) {
      const { cache } = setup(60, true, 'schema-8', await inNewIsolate())
      await env.CONTENT_CACHE.put(
        key,
        JSON.stringify({
          storedAt: 1_000_000,
          hash: `h-${schema}`,
          schema,
          payload: { title: 'A' },
        })
      )
      const before = validation.calls()
      for (let render = 0; render < 3; render++) {
        expect(
          await cache.read(
            key,
            async (): Promise<{ title?: string }> => ({ title: 'loaded' }),
            validation.validate
          )
        ).toEqual({ title: 'A', validated: true })
      }
      expect(validation.calls() - before).toBe(1)
    }
  })

  it('validates an entry again when the refresh replaced it while the isolate kept an older validation', async () => {
    const { cache } = setup(60, true, 'schema-8')
    const key = freshKey()
    const validation = countingValidation()
    await env.CONTENT_CACHE.put(
      key,
      JSON.stringify({
        storedAt: 1_000_000,
        hash: 'first',
        schema: 'schema-7',
        payload: { title: 'A' },
      })
    )
    expect(await cache.read(key, async () => ({}), validation.validate)).toEqual({
      title: 'A',
      validated: true,
    })
    await env.CONTENT_CACHE.put(
      key,
      JSON.stringify({
        storedAt: 1_000_500,
        hash: 'second',
        schema: 'schema-7',
        payload: { title: 'B' },
      })
    )
    expect(await cache.read(key, async () => ({}), validation.validate)).toEqual({
      title: 'B',
      validated: true,
    })
    expect(validation.calls()).toBe(2)
  })

  it('validates every read when no schema version is given', async () => {
    const { cache, settle } = setup()
    const key = freshKey()
    const validation = countingValidation()
    await cache.read(
      key,
      async (): Promise<{ title?: string }> => ({ title: 'A' }),
      validation.validate
    )
    await settle()
    await cache.read(key, async () => ({}), validation.validate)
    await cache.read(key, async () => ({}), validation.validate)
    expect(validation.calls()).toBe(2)
  })

  it("reading an entry's stamp leaves its payload unvalidated for the next read", async () => {
    const { cache } = setup(60, true, 'schema-8')
    const key = freshKey()
    const validation = countingValidation()
    await env.CONTENT_CACHE.put(
      key,
      JSON.stringify({
        storedAt: 1_000_000,
        hash: 'h',
        schema: 'schema-7',
        payload: { title: 'A' },
      })
    )
    expect(await cache.stampOf(key)).toMatchObject({ hash: 'h' })
    expect(await cache.read(key, async () => ({}), validation.validate)).toEqual({
      title: 'A',
      validated: true,
    })
  })
})

describe('payload cache: reads within readMemoMs', () => {
  /** The real KV binding, counting the reads that reach it. */
  function countingKv() {
    const reads: string[] = []
    const kv = new Proxy(env.CONTENT_CACHE, {
      get(target, property) {
        if (property === 'get')
          return (key: string, type: 'text' | 'json') => (
            reads.push(key),
            target.get(key, type as 'text')
          )
        const value: unknown = Reflect.get(target, property)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    return { kv, reads }
  }

  function memoCache(kv: KVNamespace, clock: { now: number }, create = createPayloadCache) {
    return create({
      kv,
      ttlSeconds: 60,
      deadlineMs: 100,
      now: () => clock.now,
      waitUntil: () => undefined,
      readMemoMs: 1_000,
    })
  }

  it('reads KV once a second per key, shows its own writes at once, and never answers another binding', async () => {
    const key = freshKey()
    const clock = { now: 1_000_000 }
    const { kv, reads } = countingKv()
    const cache = memoCache(kv, clock, await inNewIsolate())
    await cache.refresh(key, async () => ({ title: 'A' }))
    const readsAfterWrite = reads.filter((read) => read === key).length

    // Its own write is read back at once, without KV.
    expect(await cache.read(key, async () => ({ title: 'unused' }), same)).toEqual({ title: 'A' })
    expect(reads.filter((read) => read === key)).toHaveLength(readsAfterWrite)

    // Another writer changes KV: within the second the isolate still renders what it read...
    await env.CONTENT_CACHE.put(
      key,
      JSON.stringify({
        storedAt: clock.now,
        changedAt: clock.now,
        hash: 'b',
        payload: { title: 'B' },
      })
    )
    clock.now += 999
    expect(await cache.read(key, async () => ({ title: 'unused' }), same)).toEqual({ title: 'A' })
    // ...and a second after its last read, reads KV again.
    clock.now += 2
    expect(await cache.read(key, async () => ({ title: 'unused' }), same)).toEqual({ title: 'B' })
    expect(reads.filter((read) => read === key)).toHaveLength(readsAfterWrite + 1)
  })
})
