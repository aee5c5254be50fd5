/**
 * Starts the site as `npm start` does (both workers under `wrangler dev`), but on a free loopback
 * port of its own and with extra vars, for scripts that measure or load it: the bench (scripts/bench/) and
 * tests/soak/soak.mjs. The caller stops it; an exiting caller stops it too.
 */
import { spawn } from 'node:child_process'
import { createWriteStream, mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
/** The site's worker wrapped for tests and the bench (the plain page, the cache bypass, the beacons' echo). */
export const HARNESS_WORKER = 'scripts/lib/harness-worker/worker.ts'
const WRANGLER = path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js')

/**
 * Where a test's server writes its log: in `npm test`'s temporary log folder (TEST_LOG_DIR, set by
 * scripts/run-tests.mjs), else under .wrangler/<name>/.
 * @param {string} name e.g. 'soak'
 */
export function serverLogFile(name) {
  return process.env.TEST_LOG_DIR
    ? path.join(process.env.TEST_LOG_DIR, `${name}-wrangler.log`)
    : path.join(ROOT, `.wrangler/${name}/wrangler.log`)
}

/** @returns {Promise<number>} a TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
      server.close(() => resolve(port))
    })
  })
}

/**
 * @param {object} options
 * @param {Record<string, string>} [options.vars] `--var NAME:VALUE` for the site worker
 * @param {string} [options.persistTo] a state folder other than .wrangler/state
 * @param {string} options.logFile where wrangler's output goes
 * @param {number} [options.timeoutMs] how long the first page may take to answer
 * @param {boolean} [options.production] bundle as `wrangler deploy` does (NODE_ENV=production: React's
 *   production build) rather than as `wrangler dev` does by default
 * @param {string[]} [options.configs] the wrangler configurations to run, the first one answering on
 *   the port (default: the site, then the content service)
 * @param {string} [options.readyPath] the address that must answer 200 before this resolves (default `/`)
 * @param {string} [options.script] a worker entry other than the first configuration's `main`, with
 *   that configuration's bindings (HARNESS_WORKER; the cold bench's recording entry, scripts/bench/cold/worker.ts)
 * @param {() => Promise<number>} [options.pickPort] how a port is picked (default freePort; a test's
 *   own, to hand out a taken one)
 * @param {string} [options.cli] the wrangler CLI to run (default the project's; a test's stand-in)
 * @returns {Promise<{ origin: string, processGroup: number, inspectorPort: number, stop: () => Promise<void> }>}
 *   processGroup: the process group of wrangler and the workerd it runs; inspectorPort: where
 *   wrangler's inspector proxy answers for the first configuration's worker
 */
export async function startSite(options) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startSiteOnce(options, attempt)
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= START_ATTEMPTS) throw error
    }
  }
}

/**
 * How often a start is tried, each on ports picked afresh. A port found free may be taken before
 * wrangler binds it (another server of the run, or any process's outgoing connection, gets it from
 * the same ephemeral range); wrangler then exits saying "Address already in use".
 */
export const START_ATTEMPTS = 3

class PortTaken extends Error {}

/**
 * @param {Parameters<typeof startSite>[0]} options
 * @param {number} attempt 1 for the first; a later one appends to the log
 * @returns {ReturnType<typeof startSite>}
 */
async function startSiteOnce(
  {
    vars = {},
    persistTo,
    logFile,
    timeoutMs = 180_000,
    production = false,
    configs = ['wrangler.toml', 'content-service/wrangler.toml'],
    readyPath = '/',
    script,
    pickPort = freePort,
    cli = WRANGLER,
  },
  attempt
) {
  const port = await pickPort()
  const inspectorPort = await pickPort()
  const args = [cli, 'dev', ...(script ? [script] : [])]
  args.push(...configs.flatMap((config) => ['-c', config]))
  args.push('--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspectorPort))
  args.push('--show-interactive-dev-session=false', '--log-level', 'warn')
  if (persistTo) args.push('--persist-to', persistTo)
  for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`)

  mkdirSync(path.dirname(logFile), { recursive: true })
  const log = createWriteStream(logFile, { flags: attempt > 1 ? 'a' : 'w' })
  if (attempt > 1) log.write(`\n(start ${attempt} of ${START_ATTEMPTS}, on ports picked afresh)\n`)
  // Its own process group, so stopping it also stops workerd.
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      CI: '1',
      ...(production ? { NODE_ENV: 'production' } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout.pipe(log, { end: false })
  child.stderr.pipe(log, { end: false })
  child.once('close', () => log.end())
  /** Settles once all wrangler said is in the log file (after its output closed). */
  const logged = new Promise((resolve) => log.once('finish', () => resolve(undefined)))
  let said = ''
  const listen = (/** @type {Buffer} */ chunk) => (said = (said + chunk).slice(-4096))
  child.stdout.on('data', listen)
  child.stderr.on('data', listen)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const stopOnExit = () => kill(child, 'SIGKILL')
  const stopOnSignal = (/** @type {NodeJS.Signals} */ signal) => {
    kill(child, 'SIGKILL')
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.once('exit', stopOnExit)
  process.once('SIGINT', stopOnSignal)
  process.once('SIGTERM', stopOnSignal)

  const stop = async () => {
    process.off('exit', stopOnExit)
    process.off('SIGINT', stopOnSignal)
    process.off('SIGTERM', stopOnSignal)
    if (child.exitCode !== null) return
    kill(child, 'SIGTERM')
    const timer = setTimeout(() => kill(child, 'SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }

  const origin = `http://127.0.0.1:${port}`
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop()
      await logged
      const Failure = /Address already in use/.test(said) ? PortTaken : Error
      throw new Failure(`wrangler dev exited with ${child.exitCode}; see ${logFile}`)
    }
    // Whichever comes first: an answer, or wrangler's exit (a taken port's holder may never answer).
    const status = await Promise.race([statusOf(`${origin}${readyPath}`), exited.then(() => 0)])
    if (status === 200 && child.exitCode === null)
      return { origin, processGroup: /** @type {number} */ (child.pid), inspectorPort, stop }
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 500)), exited])
  }
  await stop()
  throw new Error(
    `the site did not answer 200 on ${origin}${readyPath} within ${timeoutMs / 1000} s; see ${logFile}`
  )
}

/** @param {string} url @returns {Promise<number>} the status, or 0 when there is no answer in 30 s */
async function statusOf(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(30_000) })
    await response.arrayBuffer()
    return response.status
  } catch {
    return 0
  }
}

/** @param {import('node:child_process').ChildProcess} child @param {NodeJS.Signals} signal */
function kill(child, signal) {
  try {
    if (child.pid) process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

/**
 * The Workers runtime's own address behind `wrangler dev`'s proxy, or null where it cannot be found
 * (it is read from /proc: Linux only). `wrangler dev` answers on its port through a proxy worker,
 * in a workerd process of its own, that passes every text/html response through an HTMLRewriter
 * to add its live-reload script; the runtime behind it serves the site as a deployment does. Its
 * port is random: this finds the workerd processes' listening ports and asks each for robots.txt.
 * @param {{ origin: string, processGroup: number }} site what startSite returned
 * @returns {Promise<string | null>}
 */
export async function findRuntimeOrigin({ origin, processGroup }) {
  let ports
  try {
    ports = listeningPorts(processGroup)
  } catch {
    return null
  }
  for (const port of ports) {
    const candidate = `http://127.0.0.1:${port}`
    if (candidate === origin) continue
    try {
      const response = await fetch(`${candidate}/robots.txt`, {
        signal: AbortSignal.timeout(5_000),
      })
      const text = await response.text()
      if (response.ok && text.startsWith('User-agent:') && text.includes(`Sitemap: ${candidate}/`))
        return candidate
    } catch {
      // Not HTTP, or not the site.
    }
  }
  return null
}

/**
 * The processes of a process group, each with the fields of /proc/PID/stat after its command (which
 * is in parentheses): [0] state, [1] ppid, [2] pgrp, ... [11] utime, [12] stime. Linux only: throws
 * where there is no /proc.
 * @param {number} processGroup
 * @returns {{ pid: string, stat: string[] }[]}
 */
export function processesOf(processGroup) {
  const found = []
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const line = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const stat = line.slice(line.lastIndexOf(')') + 2).split(' ')
      if (Number(stat[2]) === processGroup) found.push({ pid, stat })
    } catch {
      // The process ended in between.
    }
  }
  return found
}

/**
 * The TCP ports that the workerd processes of a process group listen on (from /proc).
 * @param {number} processGroup
 * @returns {number[]}
 */
function listeningPorts(processGroup) {
  const sockets = new Set()
  for (const { pid } of processesOf(processGroup)) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('workerd')) continue
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`)
        if (target.startsWith('socket:[')) sockets.add(target.slice(8, -1))
      }
    } catch {
      // The process ended in between, or is not ours to read.
    }
  }
  const ports = new Set()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      // local_address is ADDRESS:PORT in hex; state 0A is LISTEN; field 9 is the socket's inode.
      if (fields[3] === '0A' && sockets.has(fields[9]))
        ports.add(parseInt(fields[1]?.split(':')[1] ?? '', 16))
    }
  }
  return [...ports]
}
