/**
 * Step `startup` (`npm run bench:startup`): what a new isolate costs before it answers,
 * and what a deploy uploads.
 *
 * Both workers are built once as `wrangler deploy --dry-run` builds them: the site (wrangler.toml)
 * and its floor, a minimal worker (scripts/bench/minimal-worker: Hono and React's
 * `renderToReadableStream` of one paragraph, the site's compatibility settings and minification).
 * Then `wrangler check startup` profiles each bundle's startup in the local runtime (workerd under
 * the V8 profiler: evaluating the modules, nothing else), taking turns, BENCH_STARTUP_RUNS (5)
 * times each; a worker's figure is its least active time (sampled time less idle, as wrangler
 * prints it), since load on the machine only ever adds; and, on Linux, the CPU time workerd's
 * threads spend evaluating the modules (/proc), its least run too. Target: the site's startup
 * CPU within 2x the minimal worker's, in workerd's CPU time, measured in the same run: the
 * profile's samples are wall time, which a loaded machine stretches (docs/decisions/0048).
 *
 * Sizes are those wrangler prints and Cloudflare limits: every module of the bundle (source maps
 * left out), raw and gzip. Target: at most 300 KiB gzip.
 *
 * `measureStartup({ runs })` is the same measurement for other steps (the cold bench).
 */
import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { ROOT } from '../lib/local-site.mjs'
import { loadAverage } from './shared.mjs'

/** The site's startup CPU may be at most this many times the minimal worker's. */
export const STARTUP_TARGET_RATIO = 2
/** The deploy bundle's gzip size may be at most this many KiB. */
export const BUNDLE_TARGET_GZIP_KIB = 300
const RUNS = Number(process.env.BENCH_STARTUP_RUNS) || 5

const WRANGLER = path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js')
const WORKERS = [
  { name: 'site', config: path.join(ROOT, 'wrangler.toml') },
  { name: 'minimal worker', config: path.join(ROOT, 'scripts/bench/minimal-worker/wrangler.toml') },
]
const run = promisify(execFile)
/** Miniflare as wrangler has it (a dependency of wrangler's, not of the site's). */
const MINIFLARE = createRequire(WRANGLER).resolve('miniflare')

export const step = {
  name: 'startup',
  title: 'Startup and deploy size',
  usesSite: false,
  async run({ report }) {
    report.text(
      `\nStartup: \`wrangler check startup\` of the deploy bundle, the site and a minimal worker (Hono, React's renderToReadableStream of one paragraph) taking turns, ${RUNS} runs each; the least active CPU of each (sampled less idle). Load average before: ${loadAverage()}\n`
    )
    const { site, minimal } = await measureStartup({ runs: RUNS })
    report.table(
      [site, minimal].map((worker) => ({
        worker: worker.name,
        'startup CPU ms': worker.cpuMs,
        'x minimal': (worker.cpuMs / minimal.cpuMs).toFixed(2),
        'runs ms': worker.runsMs.join(', '),
        'workerd CPU ms': worker.threadCpuMs ?? '',
        'x minimal (workerd CPU)':
          worker.threadCpuMs === undefined
            ? ''
            : (worker.threadCpuMs / minimal.threadCpuMs).toFixed(2),
        'upload KiB': worker.uploadKiB,
        'gzip KiB': worker.gzipKiB,
      }))
    )
    const profileRatio = site.cpuMs / minimal.cpuMs
    const cpuRatio =
      site.threadCpuMs === undefined ? undefined : site.threadCpuMs / minimal.threadCpuMs
    const verdict = (met) => (met ? 'met' : 'missed')
    const startup =
      cpuRatio === undefined
        ? `${profileRatio.toFixed(2)}x the minimal worker's in wrangler's profile (target: at most ${STARTUP_TARGET_RATIO}x: ${verdict(profileRatio <= STARTUP_TARGET_RATIO)}; workerd's CPU time not read here)`
        : `${cpuRatio.toFixed(2)}x the minimal worker's in workerd's CPU time (target: at most ${STARTUP_TARGET_RATIO}x: ${verdict(cpuRatio <= STARTUP_TARGET_RATIO)}), ${profileRatio.toFixed(2)}x in wrangler's profile (no target: its samples are wall time, so a thread waiting for a core counts)`
    report.text(
      `site startup: ${startup}; deploy bundle ${site.gzipKiB} KiB gzip (target: at most ${BUNDLE_TARGET_GZIP_KIB} KiB: ${verdict(site.gzipKiB <= BUNDLE_TARGET_GZIP_KIB)}), ${site.uploadKiB} KiB to upload`
    )
    report.text(
      `Each startup figure is the least of its ${RUNS} runs, which assumes the machine's load only ever adds to a run (in wrangler's profile the runs spread ${spreadOf(site.runsMs)} for the site, ${spreadOf(minimal.runsMs)} for the minimal worker, on a machine shared with other work); the ratios compare two such least runs of the same run, taken in turns.`
    )
  },
}

/** The lowest and highest of a worker's runs: `37.6–199.7 ms`. @param {number[]} runsMs */
function spreadOf(runsMs) {
  return `${Math.min(...runsMs)}–${Math.max(...runsMs)} ms`
}

/**
 * Builds the site and the minimal worker as a deploy would, and profiles their startups in turns.
 * @param {{ runs?: number }} [options]
 * @returns {Promise<{ site: StartupFigures, minimal: StartupFigures }>}
 *
 * @typedef {{ name: string, cpuMs: number, runsMs: number[], threadCpuMs?: number, uploadKiB: number, gzipKiB: number }} StartupFigures
 */
export async function measureStartup({ runs = RUNS } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'))
  try {
    const workers = []
    for (const worker of WORKERS) {
      const bundle = path.join(dir, `${workers.length}.bundle`)
      await wrangler(['deploy', '--dry-run', '-c', worker.config, '--outfile', bundle])
      workers.push({ ...worker, bundle, ...(await bundleSize(bundle)), runsMs: [], threadMs: [] })
    }
    for (let round = 0; round < runs; round++) {
      // Taking turns, each first in every other round, so that a change in load hits both.
      const order = round % 2 === 0 ? workers : [...workers].reverse()
      for (const worker of order) {
        const profile = path.join(dir, `${worker.name}-${round}.cpuprofile`)
        await profileStartup(worker.bundle, profile)
        worker.runsMs.push(activeMs(JSON.parse(readFileSync(profile, 'utf8'))))
        const threadMs = await startupThreadCpuMs(worker.bundle)
        if (threadMs !== undefined) worker.threadMs.push(threadMs)
      }
    }
    const figures = workers.map(({ name, runsMs, threadMs, size, gzipSize }) => ({
      name,
      cpuMs: Math.min(...runsMs),
      runsMs,
      ...(threadMs.length && { threadCpuMs: Number(Math.min(...threadMs).toFixed(1)) }),
      uploadKiB: kib(size),
      gzipKiB: kib(gzipSize),
    }))
    return { site: figures[0], minimal: figures[1] }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * `wrangler check startup` gives up after 10 s, which starting the local runtime alone can take on
 * a loaded machine: a run that timed out is tried again, up to 3 times.
 */
async function profileStartup(bundle, profile) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await wrangler(['check', 'startup', '--worker', bundle, '--outfile', profile])
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('timed out')) throw error
      console.log(`(wrangler check startup timed out; trying again, attempt ${attempt + 1} of 3)`)
    }
  }
}

async function wrangler(args) {
  try {
    await run(process.execPath, [WRANGLER, ...args], {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
      maxBuffer: 16 * 2 ** 20,
    })
  } catch (error) {
    throw new Error(`wrangler ${args.join(' ')} failed:\n${error.stderr || error.stdout || error}`)
  }
}

/**
 * What wrangler counts as the upload, and Cloudflare limits: every module of the multipart bundle
 * `wrangler deploy --outfile` writes, source maps and metadata left out, raw and gzip.
 */
async function bundleSize(file) {
  const form = await bundleForm(file)
  const modules = [...form.values()].filter(
    (entry) => entry instanceof Blob && entry.type !== 'application/source-map'
  )
  const all = Buffer.from(await new Blob(modules).arrayBuffer())
  return { size: all.byteLength, gzipSize: gzipSync(all).byteLength }
}

/**
 * The CPU time (ms) workerd's threads spend evaluating the bundle's modules, as wrangler check
 * startup does (a fetch that imports the main module), less a fetch that imports nothing; undefined
 * where /proc has no schedstat (not Linux).
 */
async function startupThreadCpuMs(file) {
  if (!existsSync('/proc/self/schedstat')) return undefined
  const { Miniflare, convertV4MiniflareOptions } = await import(MINIFLARE)
  const form = await bundleForm(file)
  const metadata = JSON.parse(String(form.get('metadata')))
  const modules = []
  for (const [name, entry] of form.entries()) {
    if (!(entry instanceof Blob) || entry.type === 'application/source-map') continue
    const type = MODULE_TYPES[entry.type.split(';')[0]]
    if (!type) throw new Error(`${file}: module ${name} of type ${entry.type}`)
    const text = type === 'ESModule' || type === 'CommonJS' || type === 'Text'
    modules.push({
      type,
      path: name,
      contents: text ? await entry.text() : new Uint8Array(await entry.arrayBuffer()),
    })
  }
  const entry = `startup-${randomUUID()}.mjs`
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      compatibilityDate: metadata.compatibility_date,
      compatibilityFlags: metadata.compatibility_flags,
      modulesRoot: '/',
      modules: [
        {
          type: 'ESModule',
          path: entry,
          contents: `export default { async fetch(request) {
          if (new URL(request.url).pathname === '/start') await import(${JSON.stringify(metadata.main_module)})
          return new Response('ok')
        } }`,
        },
        ...modules,
      ],
    })
  )
  try {
    await mf.ready
    const fetchCpu = async (path) => {
      const pid = workerdPid()
      const before = processCpuNs(pid)
      await (await mf.dispatchFetch(`http://startup.test${path}`)).arrayBuffer()
      return processCpuNs(pid) - before
    }
    await fetchCpu('/warm')
    const start = await fetchCpu('/start')
    const nothing = await fetchCpu('/warm')
    return Number(((start - nothing) / 1e6).toFixed(1))
  } finally {
    await mf.dispose()
  }
}

const MODULE_TYPES = {
  'application/javascript+module': 'ESModule',
  'application/javascript': 'CommonJS',
  'text/plain': 'Text',
  'application/octet-stream': 'Data',
  'application/wasm': 'CompiledWasm',
}

/** The workerd process Miniflare started for this process (its child). */
function workerdPid() {
  const pids = readdirSync('/proc').filter((name) => {
    if (!/^\d+$/.test(name)) return false
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const [command, rest] = [
        stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        stat.slice(stat.lastIndexOf(')') + 2),
      ]
      return command === 'workerd' && Number(rest.split(' ')[1]) === process.pid
    } catch {
      return false
    }
  })
  if (pids.length !== 1)
    throw new Error(`found ${pids.length} workerd processes of this bench, not 1`)
  return pids[0]
}

/** Nanoseconds on a CPU of every thread of `pid`. */
function processCpuNs(pid) {
  let total = 0
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // A thread that ended in between.
    }
  }
  return total
}

/** The parts of a bundle `wrangler deploy --outfile` writes: metadata, modules, source maps. */
async function bundleForm(file) {
  const bytes = readFileSync(file)
  const boundary = bytes.subarray(2, bytes.indexOf(10)).toString().trim()
  return new Response(bytes, {
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
  }).formData()
}

/** A startup profile's active time in ms: sampled time less idle (what `wrangler check startup` prints). */
export function activeMs(profile) {
  const idle = new Set(
    profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id)
  )
  let active = 0
  for (const [index, delta] of (profile.timeDeltas ?? []).entries())
    if (!idle.has(profile.samples[index])) active += delta
  return Number((active / 1000).toFixed(1))
}

function kib(bytes) {
  return Number((bytes / 1024).toFixed(1))
}
