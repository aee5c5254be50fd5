#!/usr/bin/env node
// @ts-check
/**
 * `npm run audit:observatory`: Mozilla's MDN HTTP Observatory (npm @mdn/mdn-http-observatory, its own
 * scanner, unchanged) run against the site as `npm start` runs it, behind a local TLS front with a
 * certificate from a CA made here with openssl and trusted through NODE_EXTRA_CA_CERTS. Prints the
 * score, the grade and every test with its result; exit code 1 below 100 or when any test fails.
 *
 * - The site: the bundled content service migrated and seeded (`npm run content:setup`), then the same
 *   `wrangler dev` as `npm start` on a free port. The fronts talk to the Workers runtime behind
 *   wrangler dev's proxy (scripts/lib/local-site.mjs findRuntimeOrigin): that proxy rewrites every
 *   response header naming the worker's address back to its own `http://` one, the redirect's
 *   `Location: https://…` included, which no deployment does.
 * - One front port for both schemes, as a site's name serves both on 80 and 443: a connection that
 *   starts with a TLS handshake is served over TLS, any other as plain HTTP. Each forwards with the
 *   visitor's Host and `X-Forwarded-Proto` (the convention of TLS fronts, which the worker's
 *   src/middleware/https-only reads), so the worker sees what it sees on Cloudflare: an https
 *   request, or an http one to redirect. The scanner is given `localhost:<port>` and checks
 *   http://localhost:<port>/ and https://localhost:<port>/ as it checks any site.
 * - The scanner runs as its CLI does (the package's `scan.js`), but with this CA as NODE_EXTRA_CA_CERTS: the
 *   package's bin/ wrapper replaces that variable with Mozilla's bundle, which does not know this CA.
 *   The package is installed on first use with --ignore-scripts (installScanner below), so its
 *   postinstall never downloads Chromium's HSTS preload list into its conf/; an empty list is
 *   written in its place: localhost is on no preload list, so the verdicts are the same.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, request as httpRequest } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { createRequire } from 'node:module'
import { createServer as createTcpServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { findRuntimeOrigin, freePort, ROOT, serverLogFile, startSite } from './lib/local-site.mjs'

const HOST = 'localhost'
/** What the Observatory must score: A+ (100 and more) with every test passing. */
const REQUIRED_SCORE = 100
/** The scanner's own requests time out after seconds; the whole scan gets this long. */
const SCAN_TIMEOUT_MS = 180_000

/**
 * The scanner is no devDependency: its dependency node_extra_ca_certs_mozilla_bundle downloads
 * Mozilla's CA bundle from outside the npm registry in an install script, which would make the
 * README's `npm install` fail offline. It is installed here on first use, from the npm registry with
 * --ignore-scripts, into node_modules/.cache (at this pinned version).
 */
const OBSERVATORY = '@mdn/mdn-http-observatory@1.4.8'
const scanner = installScanner()

process.exitCode = await main()

/** @returns {Promise<number>} the exit code */
async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'observatory-'))
  /** @type {(() => Promise<void>)[]} */
  const cleanups = [async () => rmSync(work, { recursive: true, force: true })]
  try {
    const tls = makeCertificates(work)
    ensurePreloadList()
    console.log('observatory: seeding the bundled content service (npm run content:setup)')
    run('npm', ['run', '--silent', 'content:setup'])
    const site = await startSite({ logFile: serverLogFile('observatory') })
    cleanups.push(site.stop)
    const upstream = (await findRuntimeOrigin(site)) ?? site.origin
    if (upstream === site.origin)
      console.warn(
        "observatory: the runtime behind wrangler dev's proxy was not found: its Location rewrites will fail the redirect test"
      )
    const front = await startFront(upstream, tls)
    cleanups.push(front.close)
    console.log(
      `observatory: site ${site.origin} (runtime ${upstream}), front http(s)://${HOST}:${front.port}`
    )

    const result = await scan(`${HOST}:${front.port}`, tls.caFile)
    if ('error' in result) {
      console.log(`FAIL  observatory: ${result.error}`)
      return 1
    }
    return report(result)
  } finally {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((error) => console.warn(`observatory: cleanup: ${String(error)}`))
  }
}

/**
 * A CA of this run's own and a certificate for localhost (and 127.0.0.1) signed by it.
 * @param {string} dir
 */
function makeCertificates(dir) {
  const at = (/** @type {string} */ name) => path.join(dir, name)
  const openssl = (/** @type {string[]} */ args) =>
    execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] })
  openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=erebuni observatory audit CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ])
  openssl([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    at('site.key'),
    '-out',
    at('site.csr'),
    '-subj',
    `/CN=${HOST}`,
  ])
  writeFileSync(
    at('site.ext'),
    `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:${HOST},IP:127.0.0.1\n`
  )
  openssl([
    'x509',
    '-req',
    '-in',
    at('site.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-out',
    at('site.pem'),
    '-days',
    '2',
    '-extfile',
    at('site.ext'),
  ])
  return {
    caFile: at('ca.pem'),
    key: readFileSync(at('site.key')),
    cert: readFileSync(at('site.pem')),
  }
}

/** @returns {string} the path of the scanner's `scan.js`, installed into node_modules/.cache on first use. */
function installScanner() {
  const prefix = path.join(ROOT, 'node_modules', '.cache', 'mdn-http-observatory')
  const resolveScanner = () =>
    path.join(
      path.dirname(
        createRequire(path.join(prefix, 'index.js')).resolve(
          '@mdn/mdn-http-observatory/package.json'
        )
      ),
      'src',
      'scan.js'
    )
  try {
    return resolveScanner()
  } catch {
    console.log(
      `observatory: installing ${OBSERVATORY} into ${path.relative(ROOT, prefix)} (npm, --ignore-scripts)`
    )
    run('npm', [
      'install',
      '--prefix',
      prefix,
      '--ignore-scripts',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      OBSERVATORY,
    ])
    return resolveScanner()
  }
}

/** The scanner's HSTS preload list, which its postinstall would have downloaded; empty when missing. */
function ensurePreloadList() {
  const file = path.join(path.dirname(scanner), '..', 'conf', 'hsts-preload.json')
  if (existsSync(file)) return
  writeFileSync(file, '{}\n')
  console.log(
    `observatory: no HSTS preload list (the package was installed with --ignore-scripts); wrote an empty one: ${HOST} is on none`
  )
}

/**
 * One port, both schemes: TLS for a connection that opens with a handshake record (0x16), plain
 * HTTP otherwise; each request is forwarded to `upstream` with its Host and X-Forwarded-Proto.
 * @param {string} upstream
 * @param {{ key: Buffer, cert: Buffer }} tls
 */
async function startFront(upstream, tls) {
  const forwardAs =
    (/** @type {'http' | 'https'} */ scheme) =>
    (
      /** @type {import('node:http').IncomingMessage} */ request,
      /** @type {import('node:http').ServerResponse} */ response
    ) => {
      const target = new URL(request.url ?? '/', upstream)
      const headers = { ...request.headers, 'x-forwarded-proto': scheme }
      const outgoing = httpRequest(target, { method: request.method, headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      })
      outgoing.on('error', (error) => {
        response.writeHead(502, { 'Content-Type': 'text/plain' })
        response.end(`front: ${error.message}\n`)
      })
      request.pipe(outgoing)
    }
  const plain = createHttpServer(forwardAs('http'))
  const secure = createHttpsServer({ key: tls.key, cert: tls.cert }, forwardAs('https'))
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set()
  const accept = (/** @type {import('node:net').Socket} */ socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    socket.once('data', (first) => {
      socket.pause()
      socket.unshift(first)
      ;(first[0] === 0x16 ? secure : plain).emit('connection', socket)
      process.nextTick(() => socket.resume())
    })
  }
  // `localhost` may resolve to ::1 or to 127.0.0.1: the front listens on both, on one port.
  const port = await freePort()
  const listeners = []
  for (const address of ['127.0.0.1', '::1']) {
    const listener = createTcpServer(accept)
    const listening = await new Promise((resolve) => {
      listener.once('error', () => resolve(false))
      listener.listen(port, address, () => resolve(true))
    })
    if (listening) listeners.push(listener)
  }
  return {
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await Promise.all(
        listeners.map(
          (listener) => new Promise((resolve) => listener.close(() => resolve(undefined)))
        )
      )
    },
  }
}

/**
 * The scanner's JSON for `target`, run as its CLI runs it, trusting `caFile`. Asynchronous: the front
 * it scans runs in this process.
 * @param {string} target host:port
 * @param {string} caFile
 * @returns {Promise<{ scan: Record<string, unknown>, tests: Record<string, Record<string, unknown>> } | { error: string }>}
 */
async function scan(target, caFile) {
  const child = spawn(process.execPath, [scanner, target], {
    cwd: ROOT,
    env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), SCAN_TIMEOUT_MS)
  const status = await new Promise((resolve) => child.once('close', resolve))
  clearTimeout(timer)
  try {
    return JSON.parse(stdout)
  } catch {
    return {
      error: `the scanner exited with ${status} and printed no JSON: ${stdout.slice(0, 500)} ${stderr.trim().slice(0, 500)}`,
    }
  }
}

/**
 * Prints the score and every test; the exit code.
 * @param {{ scan: Record<string, unknown>, tests: Record<string, Record<string, unknown>> }} result
 */
function report({ scan: summary, tests }) {
  const entries = Object.entries(tests)
  for (const [name, test] of entries) {
    const modifier = Number(test.scoreModifier ?? 0)
    console.log(
      `${test.pass ? 'PASS' : 'FAIL'}  ${name}: ${test.result} (${modifier >= 0 ? '+' : ''}${modifier})`
    )
  }
  const score = Number(summary.score)
  const failed = entries.filter(([, test]) => !test.pass).length
  const ok = score >= REQUIRED_SCORE && failed === 0
  console.log(
    `observatory: score ${score}, grade ${summary.grade}, ${summary.testsPassed}/${summary.testsQuantity} tests passed (algorithm ${summary.algorithmVersion}); ${ok ? 'OK' : `FAIL: needs ${REQUIRED_SCORE} and every test passing`}`
  )
  return ok ? 0 : 1
}

/** Runs a command in the repository, its output on ours; throws when it fails. */
function run(/** @type {string} */ command, /** @type {string[]} */ args) {
  const child = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' })
  if (child.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${child.status}`)
}
