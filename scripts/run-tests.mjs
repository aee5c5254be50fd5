#!/usr/bin/env node
// @ts-check
/**
 * `npm test`: every stage of the tests, each one npm script, in two lanes side by side (the machine
 * has two cores), each lane's stages one after another. A stage's whole output (and the logs of the
 * servers it starts) goes to a file in a temporary folder; the terminal gets one line when a stage
 * starts, its summary when it ends, and, only when it fails, its failure report and where the rest is.
 *
 *   npm test                      every stage
 *   npm test -- soak smoke        only the stages named (by name or npm script)
 *   TEST_LANES=1 npm test         every stage one after another
 *
 * A stage is `{ name, script, summary, browsers }`: add one to a lane below. `summary` picks the
 * lines of the stage's output worth showing when it passes (default: its last line). Stages and what each proves: docs/testing.md.
 */
import { spawn, spawnSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { provideBrowsers, SYSTEM_BROWSERS } from './lib/system-browsers.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const VITEST_SUMMARY = /^\s*(Test Files|Tests)\s/
/** A stage that runs longer than this is stopped and failed (TEST_STAGE_TIMEOUT_MINUTES, default 30: a guard against a hung stage, far beyond a slow one). */
const STAGE_TIMEOUT_MS = (Number(process.env.TEST_STAGE_TIMEOUT_MINUTES) || 30) * 60_000
/** Lines of a failed stage's log shown in the terminal. */
const FAILURE_LINES = 80
/**
 * Where a runner's failure report starts: Vitest's "Failed Tests" banner, Playwright's first
 * numbered failure ("  1) [chromium] › ..."). From there the log names each failed test and why.
 */
const FAILURE_REPORT = /(Failed Tests \d+|^\s{2}1\) )/
/** How stages are run; tests/tooling/run-tests.test.ts points TEST_RUNNER_NPM at a stand-in script. */
const [NPM, ...NPM_ARGS] = process.env.TEST_RUNNER_NPM
  ? [process.execPath, process.env.TEST_RUNNER_NPM]
  : ['npm']

/**
 * A stage is `{ name, script, summary, browsers }`: `browsers` are the distribution's browsers it
 * drives, installed before any stage runs (scripts/lib/system-browsers.mjs).
 * @typedef {{ name: string, script: string, summary?: RegExp, browsers?: import('./lib/system-browsers.mjs').SystemBrowser[] }} Stage
 */
/** @type {Stage[][]} */
const LANES = [
  [
    {
      name: 'checks',
      script: 'check',
      summary: /^(check:deploy:|check:references:|check:faces:|✓ All workflow files)/,
    },
    { name: 'worker tests', script: 'test:worker', summary: VITEST_SUMMARY },
  ],
  // The longest stage first, then three short ones: two that mostly wait (for a TTL, for a server)
  // and the soak's 40 s of load, so that the lanes end together: on a 2-core machine the browser
  // tests and these take about as long as the checks and the worker tests side by side with them
  // (docs/testing.md, docs/decisions/0054).
  // Debian's chromium and its headless shell (docs/decisions/0036), unless CHROME_PATH names
  // another (CI: the runner's Google Chrome).
  [
    {
      name: 'browser tests',
      script: 'test:e2e',
      summary: /^(e2e:|browser tests:)/,
      browsers: process.env.CHROME_PATH
        ? []
        : [SYSTEM_BROWSERS.chromium, SYSTEM_BROWSERS.chromiumHeadlessShell],
    },
    { name: 'freshness', script: 'test:freshness', summary: /^Freshness:/ },
    { name: 'smoke', script: 'test:smoke', summary: VITEST_SUMMARY },
    { name: 'soak', script: 'soak', summary: /^(Soak:|Every answer)/ },
  ],
]

const wanted = process.argv.slice(2)
// TEST_LANES=1: every stage one after another, as before the lanes (a machine with one core, or
// one busy enough that the stages' time-outs suffer from running side by side).
const chosenLanes = process.env.TEST_LANES === '1' ? [LANES.flat()] : LANES
const lanes = chosenLanes.map((lane) =>
  lane.filter(
    (stage) => !wanted.length || wanted.includes(stage.name) || wanted.includes(stage.script)
  )
)
const unknown = wanted.filter(
  (name) => !LANES.flat().some((stage) => stage.name === name || stage.script === name)
)
if (unknown.length) {
  console.error(
    `npm test: no stage ${unknown.join(', ')}; stages: ${LANES.flat()
      .map((stage) => stage.name)
      .join(', ')}`
  )
  await exit(2)
}

const logDir = mkdtempSync(path.join(os.tmpdir(), 'erebuni-tests-'))
const env = {
  ...process.env,
  TEST_LOG_DIR: logDir,
  SKIP_CLIENT_BUILD: '1',
  WRANGLER_SEND_METRICS: 'false',
  NO_COLOR: '1',
  FORCE_COLOR: '0',
}
const started = Date.now()
const stages = lanes.flat()
console.log(
  `npm test: ${stages.map((stage) => stage.name).join(', ')}; lanes side by side: ${lanes
    .filter((lane) => lane.length)
    .map((lane) => lane.map((stage) => stage.name).join(' -> '))
    .join(' | ')}`
)
console.log(`npm test: each stage's output and its servers' logs go to ${logDir}/`)

// The browsers the chosen stages drive, before anything runs: installed when this machine can,
// else the run stops here, naming the command that installs them.
const browsers = provideBrowsers({
  who: 'npm test',
  needs: [...new Set(stages.flatMap((stage) => stage.browsers ?? []))],
  logFile: path.join(logDir, 'apt-get.log'),
})
if (!browsers.ok) {
  console.log(browsers.message)
  await exit(1)
}

// The client bundle once, before the stages' servers start (scripts/build-client.mjs, SKIP_CLIENT_BUILD).
const build = spawnSync(process.execPath, ['scripts/build-client.mjs'], {
  cwd: ROOT,
  encoding: 'utf8',
  env: { ...env, SKIP_CLIENT_BUILD: process.env.SKIP_CLIENT_BUILD ?? '0' },
})
if (build.status !== 0) {
  console.log(
    `FAIL client build (node scripts/build-client.mjs, exit ${build.status}):\n${build.stdout}${build.stderr}`
  )
  await exit(1)
}

/** @type {{ stage: Stage, ok: boolean, seconds: number, cpu: number | string, log: string }[]} */
const results = []
let stopping = false
/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set()
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    stopping = true
    for (const child of running) killGroup(child, 'SIGINT')
    setTimeout(() => process.exit(130), 15_000).unref()
  })
}

await Promise.all(
  lanes.map(async (lane) => {
    for (const stage of lane) if (!stopping) results.push(await runStage(stage))
  })
)

const failed = results.filter((result) => !result.ok)
const total = Math.round((Date.now() - started) / 1000)
console.log(
  `npm test: ${results.map((r) => `${r.stage.name} ${r.ok ? 'ok' : 'FAILED'} ${r.seconds} s (${r.cpu} CPU-s)`).join(', ')}; ${total} s in all, ${results.reduce((sum, r) => sum + (Number(r.cpu) || 0), 0)} CPU-s`
)
if (failed.length) {
  console.log(
    `npm test: FAILED: ${failed.map((r) => `${r.stage.name} (log: ${r.log})`).join(', ')}`
  )
  await exit(1)
}
if (!process.env.KEEP_TEST_LOGS) rmSync(logDir, { recursive: true, force: true })
console.log(
  `npm test: all ${results.length} stages passed${process.env.KEEP_TEST_LOGS ? `; logs kept in ${logDir}/` : ''}`
)

/**
 * Exits once everything printed so far has been written: process.exit() alone cuts off output
 * still on its way through a pipe (CI's log).
 * @param {number} code
 * @returns {Promise<never>}
 */
function exit(code) {
  return new Promise(() => process.stdout.write('', () => process.exit(code)))
}

/** @param {Stage} stage */
async function runStage(stage) {
  const log = path.join(logDir, `${stage.name.replace(/\W+/g, '-')}.log`)
  const out = createWriteStream(log)
  const begin = Date.now()
  console.log(`-> ${stage.name}: npm run ${stage.script}`)
  const cpuFile = `${log}.cpu`
  // Through sh, whose `times` then reports the CPU the stage's processes used (user + system of
  // every process it waited for: Node, workerd, the browsers). `trap : INT` keeps sh waiting for
  // the stage on a Ctrl-C, which its processes still get with their default handling.
  const child = spawn(
    '/bin/sh',
    [
      '-c',
      'trap : INT; "$@"; status=$?; times >"$CPU_FILE"; exit $status',
      'sh',
      NPM,
      ...NPM_ARGS,
      'run',
      '--silent',
      stage.script,
    ],
    {
      cwd: ROOT,
      env: { ...env, CPU_FILE: cpuFile },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    }
  )
  running.add(child)
  child.stdout.pipe(out, { end: false })
  child.stderr.pipe(out, { end: false })
  // SIGINT first, as Ctrl-C would: Playwright and scripts/lib/local-site.mjs then stop the servers
  // they started in process groups of their own, which a SIGKILL of the stage's group (or a
  // SIGTERM, on which Playwright exits at once) would leave running.
  const timer = setTimeout(() => {
    out.write(`\nnpm test: stopped after ${STAGE_TIMEOUT_MS / 60_000} minutes\n`)
    killGroup(child, 'SIGINT')
    setTimeout(() => killGroup(child, 'SIGKILL'), 15_000).unref()
  }, STAGE_TIMEOUT_MS)
  const code = await new Promise((resolve) => child.once('close', (status) => resolve(status ?? 1)))
  clearTimeout(timer)
  running.delete(child)
  await new Promise((resolve) => out.end(resolve))
  const seconds = Math.round((Date.now() - begin) / 1000)
  const cpu = cpuSeconds(cpuFile)
  const lines = readFileSync(log, 'utf8')
    .split('\n')
    .map((line) => line.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').trimEnd())
  if (code === 0) {
    const picked = stage.summary ? lines.filter((line) => stage.summary?.test(line)) : []
    const summary = (picked.length ? picked : lines.filter(Boolean).slice(-1))
      .map((line) => line.trim())
      .join('; ')
    console.log(`ok ${stage.name} (${seconds} s, ${cpu} CPU-s): ${summary}`)
    return { stage, ok: true, seconds, cpu, log }
  }
  const shown = lines.filter((line) => line && !line.startsWith('[WebServer]'))
  const report = shown.findIndex((line) => FAILURE_REPORT.test(line))
  const excerpt =
    report >= 0 ? shown.slice(report, report + FAILURE_LINES) : shown.slice(-FAILURE_LINES)
  if (report >= 0 && report + FAILURE_LINES < shown.length) excerpt.push('...', ...shown.slice(-4))
  console.log(
    `FAIL ${stage.name} (npm run ${stage.script}, exit ${code}, ${seconds} s, ${cpu} CPU-s). ${report >= 0 ? 'Its failure report' : 'The end of its log'}:`
  )
  for (const line of excerpt) console.log(`  | ${line}`)
  console.log(`FAIL ${stage.name}: whole log ${log}; servers' logs beside it in ${logDir}/`)
  return { stage, ok: false, seconds, cpu, log }
}

/**
 * The CPU seconds (user + system) of the processes a stage waited for, from the second line of
 * sh's `times` ("0m12.34s 0m1.23s": its children's user and system time).
 * @param {string} file
 */
function cpuSeconds(file) {
  let text = ''
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return '?'
  }
  const children = text.trim().split('\n').at(-1) ?? ''
  const total = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (sum, [, minutes, secs]) => sum + Number(minutes) * 60 + Number(secs),
    0
  )
  return Math.round(total)
}

/** @param {import('node:child_process').ChildProcess} child @param {NodeJS.Signals} signal */
function killGroup(child, signal) {
  try {
    if (child.pid) process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}
