/// <reference types="node" />
/**
 * How the cold bench (scripts/bench/cold.mjs) finds the chain of awaited I/O before a response's
 * first byte: its recorders (scripts/bench/cold/io-recorder.ts) give calls made side by side one
 * depth and a call that waited for another's answer the next, whatever order the answers come in;
 * the chain lists each depth's calls, before the response only; bulk reads bill per key.
 */
import { describe, expect, it } from 'vitest'
import {
  newTrace,
  recordedKv,
  responded,
  setRoundTripMs,
  withTrace,
} from '../../scripts/bench/cold/io-recorder'
import {
  chainBeforeFirstByte,
  chainText,
  unitsByKind,
  type IoRecord,
} from '../../scripts/bench/cold/levels.mjs'

/** A KV namespace whose every read answers after `delays[key]` ms. */
function slowKv(delays: Record<string, number>): KVNamespace {
  const answer = (key: string) =>
    new Promise((resolve) => setTimeout(() => resolve(`value of ${key}`), delays[key] ?? 0))
  return {
    get: (key: string | string[]) =>
      Array.isArray(key)
        ? Promise.all(key.map(answer)).then((values) => new Map(key.map((k, i) => [k, values[i]])))
        : answer(key),
    put: async () => undefined,
  } as unknown as KVNamespace
}

describe('the recorded chain of a request', () => {
  it('puts calls started side by side at one depth, and a call that awaited an answer one deeper', async () => {
    setRoundTripMs(0)
    // The first call answers last: the order of answers must not make the two look sequential.
    const kv = recordedKv(slowKv({ navbar: 30, contact: 5, home: 1 }), 'CONTENT_CACHE')
    const trace = newTrace('side-by-side', 'GET /')
    await withTrace(trace, async () => {
      await Promise.all([kv.get('navbar'), kv.get('contact')])
      await kv.get(['placeholder:a', 'placeholder:b', 'placeholder:c'])
      responded(trace)
      await kv.put('home', 'after the response')
    })
    expect(trace.records.map(({ target, depth }) => [target, depth])).toEqual([
      ['CONTENT_CACHE:navbar', 1],
      ['CONTENT_CACHE:contact', 1],
      ['CONTENT_CACHE:[3 keys]', 2],
      ['CONTENT_CACHE:home', 3],
    ])
    const chain = chainBeforeFirstByte(trace.records as IoRecord[])
    expect(chain).toEqual([['kv-read', 'kv-read'], ['kv-read']])
    expect(chainText(chain)).toBe('2 kv-read → kv-read')
    expect(unitsByKind(trace.records as IoRecord[])).toEqual({ 'kv-read': 5, 'kv-write': 1 })
  })

  it('records nothing outside a traced invocation', async () => {
    setRoundTripMs(0)
    const kv = recordedKv(slowKv({}), 'CONTENT_CACHE')
    const trace = newTrace('elsewhere', 'GET /')
    await kv.get('navbar')
    expect(trace.records).toEqual([])
  })

  it('counts no data point or call after the response in the chain', () => {
    const records: IoRecord[] = [
      { kind: 'cache-read', target: 'page', units: 1, depth: 1, beforeResponse: true },
      { kind: 'analytics', target: 'VITALS', units: 1, depth: 0, beforeResponse: true },
      { kind: 'cache-write', target: 'page', units: 1, depth: 2, beforeResponse: false },
    ]
    expect(chainBeforeFirstByte(records)).toEqual([['cache-read']])
    expect(chainText([])).toBe('—')
  })
})
