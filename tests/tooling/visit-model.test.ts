/// <reference types="node" />
/**
 * The cold bench's visit model (scripts/bench/cold/visit-model.mjs), which writes the operator's
 * "A visit at 300 a day and at 3 million a month": the share of visits meeting each cold level is
 * what a seeded simulation of Poisson visits to an edge cache, a Cache API, isolates and KV finds;
 * the mixture's percentiles are what sampling it finds; the bill is each product's price on what
 * exceeds the plan's allowance.
 */
import { describe, expect, it } from 'vitest'
import { PRICES } from '../../scripts/bench/cold/cloudflare-figures.mjs'
import {
  levelShares,
  monthlyBill,
  quantile,
  SECONDS_PER_DAY,
  timeToFirstByte,
} from '../../scripts/bench/cold/visit-model.mjs'
import type { SiteLifetimes } from '../../scripts/bench/cold/visit-model.mjs'
import { seededRandom } from '../../scripts/lib/seeded-random.mjs'

/**
 * Visits one by one, as the platform meets them: the edge copy of a page is stored or renewed by
 * every worker invocation for it and is fresh, then stale, then gone; the Cache API copy is stored
 * only by a render (a Cache API miss) and kept `cacheApiS`; the isolate lives `isolateIdleS` after
 * the last visit; KV's copy is hot within cacheTtl of the last read at the location.
 */
function simulate(site: SiteLifetimes, visits: number, seed: number) {
  const next = seededRandom(seed)
  const rate = site.visitsPerDay / SECONDS_PER_DAY
  const edgeAt = new Array<number>(site.pages).fill(-Infinity)
  const cacheAt = new Array<number>(site.pages).fill(-Infinity)
  let lastVisit = -Infinity
  let lastRead = -Infinity
  const counts = { a: 0, b: 0, c: 0, d: 0, e: 0, reads: 0, hot: 0 }
  let time = 0
  for (let index = 0; index < visits; index++) {
    time += -Math.log(1 - next()) / rate
    const page = Math.floor(next() * site.pages)
    const edgeAge = time - edgeAt[page]!
    const warm = time - lastVisit < site.isolateIdleS
    lastVisit = time
    if (edgeAge < site.freshS) {
      counts.a++
      continue
    }
    // The worker runs: now, or in the background behind a stale copy.
    const cacheHit = time - cacheAt[page]! < site.cacheApiS
    if (edgeAge < site.freshS + site.staleS) counts.b++
    else if (cacheHit) counts[warm ? 'c' : 'd']++
    else counts.e++
    counts.reads++
    if (time - lastRead < site.kvCacheTtlS) counts.hot++
    lastRead = time
    edgeAt[page] = time
    if (!cacheHit) cacheAt[page] = time
  }
  return {
    a: counts.a / visits,
    b: counts.b / visits,
    c: counts.c / visits,
    d: counts.d / visits,
    e: counts.e / visits,
    kvHot: counts.hot / counts.reads,
  }
}

/** The site's lifetimes (its pages, edge, Cache API, isolate and KV), at some traffic. */
const SITE: Omit<SiteLifetimes, 'visitsPerDay'> = {
  pages: 15,
  freshS: 60,
  staleS: 600,
  cacheApiS: 660,
  isolateIdleS: 60,
  kvCacheTtlS: 60,
}

describe('the share of visits meeting each cold level', () => {
  const sites: [string, SiteLifetimes][] = [
    ["the site's lifetimes, a few hundred visits a day", { ...SITE, visitsPerDay: 300 }],
    ["the site's lifetimes, a busy location", { ...SITE, visitsPerDay: 100_000 }],
    [
      'traffic where every level but (c) and (d) is common',
      {
        visitsPerDay: 2_000,
        pages: 3,
        freshS: 60,
        staleS: 120,
        cacheApiS: 180,
        isolateIdleS: 30,
        kvCacheTtlS: 90,
      },
    ],
    [
      'stale copies kept for days',
      {
        visitsPerDay: 300,
        pages: 15,
        freshS: 60,
        staleS: 7 * SECONDS_PER_DAY,
        cacheApiS: 60 + 7 * SECONDS_PER_DAY,
        isolateIdleS: 60,
        kvCacheTtlS: 60,
      },
    ],
  ]

  for (const [name, site] of sites) {
    it(`agrees with a simulation of 400,000 Poisson visits: ${name}`, () => {
      const model = levelShares(site)
      const simulated = simulate(site, 400_000, 39)
      for (const level of ['a', 'b', 'c', 'd', 'e'] as const)
        expect(Math.abs(model[level] - simulated[level]), level).toBeLessThan(0.005)
      expect(model.f).toBe(0)
      const total = model.a + model.b + model.c + model.d + model.e + model.f
      expect(total).toBeCloseTo(1, 12)
      expect(Math.abs(model.kvHot - simulated.kvHot), 'KV hot').toBeLessThan(0.01)
    })
  }
})

describe('the time to first byte of a level', () => {
  const latencies = {
    visitor: { ms: 10 },
    edgeCache: { ms: 1 },
    cacheApi: { ms: 2 },
    kvHot: { ms: 3 },
    kvCold: { ms: 100 },
    kvWrite: { ms: 120 },
    backend: { ms: 200 },
    other: { ms: 5 },
  }

  it('adds each step of the chain at its slowest call, after the CPU and the visitor round trip', () => {
    const chain = [['cache-read'], ['kv-read', 'kv-read', 'backend'], ['kv-write', 'assets']]
    expect(timeToFirstByte({ chain, cpuMs: 7 }, { kvHot: true, latencies, workerRuns: true })).toBe(
      10 + 7 + 2 + 200 + 120
    )
    expect(
      timeToFirstByte(
        { chain: [['kv-read']], cpuMs: 7 },
        { kvHot: false, latencies, workerRuns: true }
      )
    ).toBe(10 + 7 + 100)
  })

  it('is the visitor round trip and the edge answer when the worker does not run', () => {
    expect(
      timeToFirstByte(
        { chain: [['backend']], cpuMs: 50 },
        { kvHot: false, latencies, workerRuns: false }
      )
    ).toBe(11)
  })
})

describe('the percentiles of a mixture of levels', () => {
  it('are what 200,000 draws from the mixture find', () => {
    const outcomes = [
      { value: 11, weight: 0.62 },
      { value: 120, weight: 0.2 },
      { value: 310, weight: 0.15 },
      { value: 900, weight: 0.03 },
    ]
    const next = seededRandom(7)
    const draws = Array.from({ length: 200_000 }, () => {
      let left = next()
      for (const outcome of outcomes) {
        left -= outcome.weight
        if (left < 0) return outcome.value
      }
      return outcomes.at(-1)!.value
    }).sort((a, b) => a - b)
    for (const q of [0.5, 0.6, 0.9, 0.95, 0.99])
      expect(quantile(outcomes, q), `q=${q}`).toBe(draws[Math.ceil(q * draws.length) - 1])
  })

  it('ignore outcomes of no weight and need not be given in order', () => {
    expect(
      quantile(
        [
          { value: 500, weight: 0.5 },
          { value: 5, weight: 0 },
          { value: 50, weight: 0.5 },
        ],
        0.5
      )
    ).toBe(50)
  })
})

describe('the monthly bill', () => {
  it("charges each product's list price on what exceeds the plan's allowance", () => {
    const { rows, total } = monthlyBill(
      {
        workersRequests: 12_000_000,
        workersCpuMs: 20_000_000,
        kvReads: 46_000_000,
        kvWrites: 1_250_000,
        imagesTransformations: 6_000,
        analyticsDataPoints: 15_000_000,
        queueOperations: 4_000_000,
      },
      PRICES
    )
    const usd = Object.fromEntries(rows.map((row) => [row.product, row.usd]))
    // 2 M requests at USD 0.30; CPU within its 30 M ms; 36 M reads at 0.50; 0.25 M writes at 5;
    // 1,000 transformations at 0.50 a thousand; 5 M data points at 0.25; 3 M operations at 0.40.
    expect(usd.workersRequests).toBeCloseTo(0.6, 10)
    expect(usd.workersCpuMs).toBe(0)
    expect(usd.kvReads).toBeCloseTo(18, 10)
    expect(usd.kvWrites).toBeCloseTo(1.25, 10)
    expect(usd.imagesTransformations).toBeCloseTo(0.5, 10)
    expect(usd.analyticsDataPoints).toBeCloseTo(1.25, 10)
    expect(usd.queueOperations).toBeCloseTo(1.2, 10)
    expect(total).toBeCloseTo(0.6 + 18 + 1.25 + 0.5 + 1.25 + 1.2, 10)
  })

  it('refuses a product it has no price for', () => {
    expect(() => monthlyBill({ durableObjects: 1 }, PRICES)).toThrow('no price for durableObjects')
  })
})
