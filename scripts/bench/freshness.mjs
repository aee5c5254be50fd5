/**
 * Step `freshness` (`npm run bench:freshness`, the end of `npm run bench`): the freshness contract across Cloudflare's
 * network, on a simulated clock, with the real payload cache and refresh code
 * (src/freshness/payload-cache.ts, src/freshness/refresh.ts, src/freshness/content-client.ts, bundled by esbuild).
 *
 * The model, one step per simulated second:
 * - a counting fake backend (global `fetch`) whose 9 payloads (5 endpoints, page meta data for 4
 *   pages) editors change at random, on average every EDIT_EVERY_S seconds each;
 * - KV shared by N data centres: a write is seen at once where it was made and elsewhere after a
 *   delay drawn from 0..PROPAGATION_S (KV's "about 60 s");
 * - Workers Cache in each data centre: a page is fresh for s-maxage (PAGE_CACHE_TTL), then served
 *   stale while one render replaces it; purges by tag reach every data centre at once;
 * - visitors: R requests a second, spread over the data centres and the 12 pages (4 pages x 3
 *   languages); a render reads its payloads through the real payload cache from its data centre's
 *   KV view;
 * - the Cron Trigger once a minute, network-wide, from a random data centre (runScheduledRefresh),
 *   and, in the "with the hook" run, a publish hook call for each edit as it is saved.
 * Isolates are not modelled one by one: while the cron runs, requests neither call the backend nor
 * write KV, so how a data centre's traffic is split among isolates changes none of the figures.
 *
 * It reports, per scenario: backend calls per payload in any CONTENT_TTL window (max), KV writes per
 * key in any second (max), and the worst staleness any visitor saw: how long before the visit the
 * backend already had newer content than the page showed.
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { PAGE_PATHS as PAGES } from '../../src/shared/site-paths.ts'
import { ROOT } from '../lib/local-site.mjs'

const HOURS = Number(process.env.SIMULATE_HOURS) || 3
const PROPAGATION_S = 60
const EDIT_EVERY_S = 20 * 60
const LANGUAGES = ['', '/en', '/ru']
const ORIGIN = 'https://cms.simulated'

const SCENARIOS = [
  {
    name: 'defaults (30 data centres, 20 req/s)',
    dcs: 30,
    rps: 20,
    ttl: 300,
    pageTtl: 60,
    hook: false,
  },
  {
    name: 'busy day (300 data centres, 1,000 req/s)',
    dcs: 300,
    rps: 1000,
    ttl: 300,
    pageTtl: 60,
    hook: false,
  },
  {
    name: 'busy day, CMS calls the publish hook',
    dcs: 300,
    rps: 1000,
    ttl: 300,
    pageTtl: 60,
    hook: true,
  },
]

/** The real code, bundled once (bundleRealCode): the file each simulation imports as a new isolate. */
let bundle
let isolates = 0

export const step = {
  name: 'freshness',
  title: 'Freshness across the network, simulated',
  usesSite: false,
  run: ({ report }) => simulateNetwork(report),
}

async function simulateNetwork(report) {
  bundle ??= await bundleRealCode()
  const rows = []
  for (const scenario of SCENARIOS) {
    if (process.env.SIMULATE_ONLY && !scenario.name.includes(process.env.SIMULATE_ONLY)) continue
    rows.push(await simulate(scenario))
  }
  report.text(
    `\nFreshness across the network: ${HOURS} simulated hours each, KV propagation 0-${PROPAGATION_S} s, an edit per payload every ~${EDIT_EVERY_S / 60} min`
  )
  report.table(rows)
  return rows
}

async function bundleRealCode() {
  const outfile = path.join(ROOT, '.wrangler/simulate/freshness.mjs')
  await build({
    stdin: {
      contents: [
        "export { createPayloadCache } from './src/freshness/payload-cache.ts'",
        "export { createContentClient } from './src/freshness/content-client.ts'",
        "export { refreshPayloads, runScheduledRefresh, scheduledRefreshIsRunning } from './src/freshness/refresh.ts'",
        "export { REPURGE_DELAY_SECONDS } from './src/freshness/repurge.ts'",
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
  })
  return pathToFileURL(outfile)
}

async function simulate({ name, dcs, rps, ttl, pageTtl, hook }) {
  // A new isolate of the real code: its modules evaluated afresh, nothing remembered of the last run.
  const code = await import(`${bundle.href}?isolate=${++isolates}`)
  let nowMs = 0
  const now = () => nowMs
  const random = seeded(42)
  const duration = HOURS * 3600

  // The backend: each payload's edit times; its version at t is the number of edits up to t.
  const payloadIds = [
    ...['get-home-page', 'get-about-page', 'get-enterprises-page', 'contact-us', 'navbar-data'],
    ...PAGES.map((page) => `meta:${page}`),
  ]
  const edits = Object.fromEntries(payloadIds.map((id) => [id, editTimes(random, duration)]))
  const versionAt = (id, t) => countUpTo(edits[id], t)
  const backendCalls = Object.fromEntries(payloadIds.map((id) => [id, []]))
  globalThis.fetch = async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const endpoint = url.pathname.split('/').pop()
    const id = endpoint === 'page-meta-data' ? `meta:${url.searchParams.get('page')}` : endpoint
    backendCalls[id].push(now() / 1000)
    return new Response(
      JSON.stringify({ payload: payloadOf(endpoint, `v${versionAt(id, now() / 1000)}`) }),
      { headers: { 'Content-Type': 'application/json' } }
    )
  }

  const kv = networkKv(dcs, random, now)
  const env = (dc) => ({
    API_HOST: ORIGIN,
    PRODUCT: 'erebuni',
    META_PATH: 'site',
    CONTENT_TTL: String(ttl),
    CONTENT_CACHE: kv.view(dc),
  })
  const sources = code
    .createContentClient({ env: env(0), waitUntil: () => undefined })
    .sources(PAGES)
  const idOfTag = new Map(
    sources.map((source) => [
      source.tag,
      source.endpoint === 'page-meta-data'
        ? `meta:${source.tag.split(':').pop()}`
        : source.endpoint,
    ])
  )
  const keyOfId = new Map(sources.map((source) => [idOfTag.get(source.tag), source.key]))

  const pagePaths = LANGUAGES.flatMap((prefix) =>
    PAGES.map((page) => ({ path: `${prefix}${page}`, ids: idsOf(page) }))
  )
  const edges = Array.from({ length: dcs }, () => new Map())
  const purger = {
    kind: 'workers-cache',
    async purgeTags(tags) {
      const ids = new Set(tags.map((tag) => idOfTag.get(tag)))
      for (const edge of edges) {
        for (const [pagePath, entry] of edge)
          if (entry.ids.some((id) => ids.has(id))) edge.delete(pagePath)
      }
    },
  }

  // The repurge queue (src/freshness/repurge.ts): each change's tags come back after the delay.
  const delayed = []
  const repurge = async (tags) => {
    delayed.push({ at: now() / 1000 + code.REPURGE_DELAY_SECONDS, tags: [...tags] })
  }

  const background = []
  const waitUntil = (promise) => background.push(promise)
  const settle = async () => {
    while (background.length) await Promise.allSettled(background.splice(0))
  }

  async function render(dc, page) {
    const cache = code.createPayloadCache({
      kv: kv.view(dc),
      ttlSeconds: ttl,
      waitUntil,
      deadlineMs: 10_000,
      now,
      refreshesOnRequest: async () => !(await code.scheduledRefreshIsRunning(kv.view(dc), now)),
    })
    const versions = {}
    for (const id of page.ids) {
      const payload = await cache.read(
        keyOfId.get(id),
        async () => Promise.reject(new Error('the simulation pre-fills KV')),
        (stored) => stored
      )
      versions[id] = Number(versionField(id, payload).slice(1))
    }
    return { ids: page.ids, versions, storedAt: now() }
  }

  let worst = 0
  let staleVisits = 0
  let visits = 0
  const serve = (entry, t) => {
    visits++
    let staleness = 0
    for (const id of entry.ids) {
      const shown = entry.versions[id]
      if (shown < versionAt(id, t)) staleness = Math.max(staleness, t - edits[id][shown])
    }
    if (staleness > 0) staleVisits++
    worst = Math.max(worst, staleness)
  }

  // Start: the first run fills KV, everywhere at once.
  await code.runScheduledRefresh({ env: env(0), waitUntil, purger, repurge, pages: PAGES, now })
  await settle()
  kv.publishEverywhere()
  let nextEdit = 0
  const allEdits = payloadIds
    .flatMap((id) => edits[id].map((t) => ({ t, id })))
    .sort((a, b) => a.t - b.t)
  let carry = 0

  for (let t = 1; t <= duration; t++) {
    nowMs = t * 1000
    if (hook) {
      while (nextEdit < allEdits.length && allEdits[nextEdit].t <= t) {
        const { id } = allEdits[nextEdit++]
        const endpoint = id.startsWith('meta:') ? 'page-meta-data' : id
        await code.refreshPayloads({
          env: env(Math.floor(random() * dcs)),
          waitUntil,
          purger,
          repurge,
          pages: PAGES,
          endpoints: [endpoint],
          force: true,
          now,
        })
      }
    }
    if (t % 60 === 0)
      await code.runScheduledRefresh({
        env: env(Math.floor(random() * dcs)),
        waitUntil,
        purger,
        repurge,
        pages: PAGES,
        now,
      })
    for (let i = delayed.length - 1; i >= 0; i--) {
      if (delayed[i].at <= t) await purger.purgeTags(delayed.splice(i, 1)[0].tags)
    }
    carry += rps
    for (; carry >= 1; carry--) {
      const dc = Math.floor(random() * dcs)
      const page = pagePaths[Math.floor(random() * pagePaths.length)]
      const edge = edges[dc]
      const entry = edge.get(page.path)
      const age = entry ? t - entry.storedAt / 1000 : Infinity
      if (age < pageTtl + 600) {
        serve(entry, t)
        if (age >= pageTtl && !entry.revalidating) {
          entry.revalidating = true
          edge.set(page.path, { ...entry, revalidating: true })
          const replacement = await render(dc, page)
          if (edge.get(page.path)?.storedAt === entry.storedAt) edge.set(page.path, replacement)
        }
      } else {
        const rendered = await render(dc, page)
        edge.set(page.path, rendered)
        serve(rendered, t)
      }
    }
    await settle()
    kv.prune()
  }

  return {
    scenario: name,
    'backend calls per payload per CONTENT_TTL (max)': Math.max(
      ...payloadIds.map((id) => maxInWindow(backendCalls[id], ttl))
    ),
    'backend calls per payload per hour': Number(
      (
        payloadIds.reduce((sum, id) => sum + backendCalls[id].length, 0) /
        payloadIds.length /
        HOURS
      ).toFixed(1)
    ),
    'KV writes per payload key per second (max)': kv.maxWritesPerKeyPerSecond((key) =>
      key.startsWith('payload:')
    ),
    'worst staleness (s)': worst,
    'visits with stale content': `${((staleVisits / visits) * 100).toFixed(2)}%`,
    bound: hook
      ? `about ${PROPAGATION_S} s (the queued second purge after ${code.REPURGE_DELAY_SECONDS} s)`
      : `CONTENT_TTL + ${PROPAGATION_S} = ${ttl + PROPAGATION_S} s`,
  }
}

/** KV as the network sees it: a write is visible where it was made at once, elsewhere after a delay. */
function networkKv(dcs, random, now) {
  const versions = new Map()
  const writeSeconds = new Map()
  const delays = new Map()
  function delayOf(version, dc) {
    if (dc === version.origin || version.everywhere) return 0
    let perDc = delays.get(version)
    if (!perDc)
      delays.set(
        version,
        (perDc = new Float64Array(dcs).map(() => random() * PROPAGATION_S * 1000))
      )
    return perDc[dc]
  }
  function write(key, value, origin) {
    const list = versions.get(key) ?? []
    list.push({ value, writtenAt: now(), origin })
    versions.set(key, list)
    const counts = writeSeconds.get(key) ?? new Map()
    const second = Math.floor(now() / 1000)
    counts.set(second, (counts.get(second) ?? 0) + 1)
    writeSeconds.set(key, counts)
  }
  return {
    view(dc) {
      return {
        async get(key, type) {
          const list = versions.get(key) ?? []
          for (let i = list.length - 1; i >= 0; i--) {
            const version = list[i]
            if (version.writtenAt + delayOf(version, dc) <= now()) {
              if (version.value === null) return null
              return type === 'json' || type?.type === 'json'
                ? JSON.parse(version.value)
                : version.value
            }
          }
          return null
        },
        async put(key, value) {
          write(key, String(value), dc)
        },
        async delete(key) {
          write(key, null, dc)
        },
      }
    },
    /** Marks everything written so far as seen everywhere (the warm start). */
    publishEverywhere() {
      for (const list of versions.values()) for (const version of list) version.everywhere = true
    },
    /** Drops versions every data centre has moved past. */
    prune() {
      for (const [key, list] of versions) {
        const settled = list.findLastIndex(
          (version) => version.everywhere || version.writtenAt + PROPAGATION_S * 1000 <= now()
        )
        if (settled > 0) versions.set(key, list.slice(settled))
      }
    },
    maxWritesPerKeyPerSecond(isCounted) {
      let max = 0
      for (const [key, counts] of writeSeconds)
        if (isCounted(key)) for (const count of counts.values()) max = Math.max(max, count)
      return max
    },
  }
}

function idsOf(page) {
  const own = {
    '/': ['get-home-page'],
    '/about': ['get-about-page'],
    '/enterprises': ['get-enterprises-page'],
    '/contact-us': [],
  }[page]
  return [...own, 'navbar-data', 'contact-us', `meta:${page}`]
}

/** A payload of `endpoint` whose one text field carries the version. */
function payloadOf(endpoint, version) {
  switch (endpoint) {
    case 'get-home-page':
      return { servicesTitle: version }
    case 'get-about-page':
      return { title: version }
    case 'get-enterprises-page':
      return { banner: { titleBanner: version } }
    case 'contact-us':
      return { phoneTitle: version }
    case 'navbar-data':
      return { home: version }
    default:
      return { title: version }
  }
}

function versionField(id, payload) {
  if (id === 'get-home-page') return payload.servicesTitle
  if (id === 'get-enterprises-page') return payload.banner.titleBanner
  if (id === 'contact-us') return payload.phoneTitle
  if (id === 'navbar-data') return payload.home
  return payload.title
}

/** Edit times of one payload in seconds: exponential gaps with mean EDIT_EVERY_S. */
function editTimes(random, duration) {
  const times = []
  for (
    let t = -Math.log(1 - random()) * EDIT_EVERY_S;
    t < duration;
    t += -Math.log(1 - random()) * EDIT_EVERY_S
  )
    times.push(Math.ceil(t))
  return times
}

function countUpTo(sorted, t) {
  let count = 0
  while (count < sorted.length && sorted[count] <= t) count++
  return count
}

/** The most calls in any window of `seconds` (half-open: (t - seconds, t]). */
function maxInWindow(times, seconds) {
  let max = 0
  for (let end = 0, start = 0; end < times.length; end++) {
    while (times[start] <= times[end] - seconds) start++
    max = Math.max(max, end - start + 1)
  }
  return max
}

/** A small deterministic PRNG (mulberry32), so that runs compare. */
function seeded(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}
