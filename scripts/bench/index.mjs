/**
 * `npm run bench`: what a visit costs, on this machine, in one run. `npm run bench:<step>` runs one
 * step; `npm run bench -- --skip lighthouse,images` leaves steps out; `--write docs/performance.md`
 * puts the run's figures into that file's figures section (figures-file.mjs), replacing those of
 * the run before. Usage: `node scripts/bench/index.mjs [step ...] [--skip step,...] [--write file]`.
 *
 * The steps, in the order a whole run takes them (each module's header says what it measures):
 *   lighthouse     Lighthouse on the home page, first, on a machine the load has not heated up
 *   first-load     every page's layout, style and long tasks at first load, and Lighthouse on each,
 *                  beside a plain page's (the floor)
 *   serving        throughput, latency and CPU per request: static asset, cached page, render, miss
 *   page-weights   HTML, CSS and JS bytes of all 12 pages
 *   images         images a phone receives on every page, bundled content; Lighthouse on two pages
 *   camera-images  the same with camera uploads, on a second site
 *   navigations    click → paint and back → paint between the navbar's pages, and this machine's floor
 *   image-abuse    the image route's fences: respelled addresses, memory under concurrent misses
 *   freshness      the freshness contract across Cloudflare's network, simulated
 *   cold           each cold level's chain of I/O before the first byte and its CPU beside a minimal
 *                  worker's; the visit model and the monthly bill (two sections)
 *   startup        a new isolate's startup CPU (`wrangler check startup`) beside a minimal worker's,
 *                  and the deploy bundle's size, last, on a machine no site is running on
 *
 * Before the steps that need it, the runner seeds the local content service (`npm run
 * content:setup`) and starts the site under `wrangler dev` (production build) on a free loopback
 * port (scripts/lib/local-site.mjs), inside the harness worker (scripts/lib/harness-worker/: the
 * plain page, the cache bypass) with a random CACHE_BYPASS_TOKEN so the bench alone can skip the
 * caches (docs/decisions/0002-page-cache.md). The other steps start what they need themselves.
 * Skipping `lighthouse` also skips Lighthouse in the image steps.
 *
 * Parameters (environment): BENCH_SECONDS (5) and BENCH_ROUNDS (3) of the serving step;
 * BENCH_LIGHTHOUSE_RUNS (3) and BENCH_LIGHTHOUSE_PATH (the pages, comma-separated); the
 * navigations' BENCH_NAVIGATION_RUNS (3); SIMULATE_HOURS (3) of the freshness step;
 * BENCH_COLD_RUNS (3) and BENCH_COLD_PAGE (/en) of the cold step; the
 * startup step's BENCH_STARTUP_RUNS (5);
 * BENCH_TIMEOUT_MINUTES (45) bounds the whole run. Everything stays on 127.0.0.1.
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { HARNESS_WORKER, ROOT, startSite } from '../lib/local-site.mjs'
import { checkFiguresFile, writeFigures } from './figures-file.mjs'
import { createReport } from './report.mjs'
import { machine } from './shared.mjs'

/**
 * The steps in the order of a whole run, each the `step` export of the module of its name:
 * { name, title, usesSite, run }, where `run` gets the shared site (when `usesSite`), the bypass
 * token, the report its figures go to, and whether Lighthouse runs in this run.
 */
const STEPS = [
  'lighthouse',
  'first-load',
  'serving',
  'page-weights',
  'images',
  'camera-images',
  'navigations',
  'image-abuse',
  'freshness',
  'cold',
  'startup',
]

/** A bound on the whole run (BENCH_TIMEOUT_MINUTES): a full run takes about 20 minutes on 2 cores. */
const TIMEOUT_MINUTES = Number(process.env.BENCH_TIMEOUT_MINUTES) || 45

const { names, withLighthouse, complete, write, command } = parseCommandLine(process.argv.slice(2))
if (write) {
  try {
    checkFiguresFile(write)
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error))
  }
}

const guard = setTimeout(
  () => fail(new Error(`the bench took over ${TIMEOUT_MINUTES} minutes (BENCH_TIMEOUT_MINUTES)`)),
  TIMEOUT_MINUTES * 60_000
)
guard.unref()

const selected = await Promise.all(names.map(async (name) => (await import(`./${name}.mjs`)).step))
const report = createReport()
const date = new Date().toISOString().slice(0, 10)
console.log(`Machine: ${machine()}`)

const lastOnSite = selected.findLastIndex((step) => step.usesSite)
let site
const token = randomBytes(16).toString('hex')
try {
  for (const [index, step] of selected.entries()) {
    if (step.usesSite && !site) site = await startSharedSite(token)
    report.begin(step)
    await step.run({ site, token, report, withLighthouse })
    // The steps after the last one on the shared site start their own: stop it first.
    if (index === lastOnSite) {
      await site.stop()
      site = undefined
    }
  }
} catch (error) {
  await site?.stop()
  fail(error)
}

if (write) {
  const run = { sections: report.sections(), complete, date, machine: machine(), command }
  try {
    writeFigures(write, run)
    console.log(`\nFigures written to ${write}`)
  } catch (error) {
    // Nothing measured is lost: the figures are above, and the file is as it was.
    fail(error)
  }
}
process.exit(0)

/** The site the first steps measure: seeded, under `wrangler dev`, with the bypass token. */
async function startSharedSite(bypassToken) {
  execFileSync('npm', ['run', '--silent', 'content:setup'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  return startSite({
    // The site inside the harness worker: the first-load step's plain page, the serving step's bypass.
    script: HARNESS_WORKER,
    vars: { CACHE_BYPASS_TOKEN: bypassToken },
    production: true,
    logFile: path.join(ROOT, '.wrangler/bench/wrangler.log'),
  })
}

/** The steps to run, in the bench's order, and where the figures go. */
function parseCommandLine(args) {
  let parsed
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { skip: { type: 'string', multiple: true }, write: { type: 'string' } },
    })
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error))
  }
  const { positionals, values } = parsed
  const named = (list) =>
    list
      .flatMap((value) => value.split(','))
      .map((name) => name.trim())
      .filter(Boolean)
  const chosen = named(positionals)
  const skipped = named(values.skip ?? [])
  const unknown = [...chosen, ...skipped].filter((name) => !STEPS.includes(name))
  if (unknown.length) usageError(`no bench step ${unknown.map((name) => `"${name}"`).join(', ')}`)
  const names = STEPS.filter(
    (name) => (chosen.length === 0 || chosen.includes(name)) && !skipped.includes(name)
  )
  if (names.length === 0) usageError('every step is skipped: nothing to run')
  return {
    names,
    withLighthouse: !skipped.includes('lighthouse'),
    complete: names.length === STEPS.length,
    write: values.write,
    command: commandFor(chosen, skipped),
  }
}

/** How to run the same steps again, for the figures' "measured with" line: the BENCH_ settings too. */
function commandFor(chosen, skipped) {
  const settings = Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_') && name !== 'BENCH_TIMEOUT_MINUTES')
    .map(([name, value]) => `${name}=${value} `)
    .join('')
  if (chosen.length === 1 && skipped.length === 0) return `${settings}npm run bench:${chosen[0]}`
  const args = [...chosen, ...(skipped.length ? ['--skip', skipped.join(',')] : [])]
  return `${settings}npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`
}

function usageError(message) {
  console.error(`bench: ${message}`)
  console.error(
    `usage: npm run bench [-- [step ...] [--skip step,...] [--write file.md]]; steps: ${STEPS.join(', ')}`
  )
  process.exit(2)
}

function fail(error) {
  console.error(error instanceof Error ? error.stack : error)
  process.exit(1)
}
