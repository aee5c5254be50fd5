/**
 * `npm run profile:render`: where a page render spends its CPU, read from the Workers runtime
 * itself. Starts the site as the bench does (production React build, scripts/local-site.mjs), finds
 * workerd's V8 inspector, samples the site worker's CPU while it renders PROFILE_PATH (default
 * /en) PROFILE_REQUESTS times (default 300) from cached payloads, and prints the functions and the
 * files with the most self time. The whole profile is written for Chrome DevTools (Performance tab,
 * "Load profile"): PROFILE_OUT, default .wrangler/profile/render.cpuprofile.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { processesOf, ROOT, startSite } from './local-site.mjs'

const PAGE = process.env.PROFILE_PATH || '/en'
const REQUESTS = Number(process.env.PROFILE_REQUESTS) || 300
const OUT = process.env.PROFILE_OUT || path.join(ROOT, '.wrangler/profile/render.cpuprofile')
const token = randomBytes(16).toString('hex')
const BYPASS = { 'X-Cache-Bypass': process.env.PROFILE_BYPASS || 'page', 'X-Cache-Bypass-Token': token, 'Accept-Encoding': 'gzip, br' }

const site = await startSite({ vars: { CACHE_BYPASS_TOKEN: token }, production: true, logFile: path.join(ROOT, '.wrangler/profile/wrangler.log') })
try {
  const inspector = await findInspector(site.processGroup)
  const targets = await (await fetch(`${inspector}/json/list`)).json()
  const target = targets.find((t) => /erebuni-site$/.test(t.id)) ?? (targets.length === 1 ? targets[0] : undefined)
  if (!target) throw new Error(`no site worker among the inspector's targets: ${targets.map((t) => t.id).join(', ')}`)
  console.log(`inspector: ${target.webSocketDebuggerUrl}`)
  const session = await connect(target.webSocketDebuggerUrl)
  console.log("connected")
  // Warm up: payloads into KV and the isolate's memos, JIT.
  for (let i = 0; i < 50; i++) await get(site.origin + PAGE)
  console.log("warm")
  await session.send("Profiler.enable")
  console.log("enabled")
  await session.send('Profiler.setSamplingInterval', { interval: 50 })
  await session.send('Profiler.start')
  for (let i = 0; i < REQUESTS; i++) await get(site.origin + PAGE)
  const { profile } = await session.send('Profiler.stop')
  mkdirSync(path.dirname(OUT), { recursive: true })
  writeFileSync(OUT, JSON.stringify(profile))
  report(profile)
  session.close()
} finally {
  await site.stop()
}

async function get(url) {
  const response = await fetch(url, { headers: BYPASS })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`)
}

function report(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map()
  const deltas = profile.timeDeltas
  for (let i = 0; i < profile.samples.length; i++) {
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i + 1] ?? 0))
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const fns = new Map()
  const files = new Map()
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id)
    const name = `${callFrame.functionName || '(anonymous)'} ${shortUrl(callFrame.url)}:${callFrame.lineNumber + 1}`
    fns.set(name, (fns.get(name) ?? 0) + us)
    const file = shortUrl(callFrame.url) || callFrame.functionName
    files.set(file, (files.get(file) ?? 0) + us)
  }
  const ms = (us) => (us / 1000 / REQUESTS).toFixed(3)
  const idle = (self.get([...byId.values()].find((n) => n.callFrame.functionName === '(idle)')?.id) ?? 0)
  console.log(`${REQUESTS} requests of ${PAGE}; sampled ${(total / 1000).toFixed(0)} ms, ${ms(total - idle)} ms/request not idle`)
  console.log('\nSelf time per request, by function:')
  for (const [name, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${ms(us).padStart(8)} ms  ${name}`)
  console.log('\nBy file:')
  for (const [name, us] of [...files].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${ms(us).padStart(8)} ms  ${name}`)
  console.log(`\nProfile: ${OUT}`)
}

function shortUrl(url) {
  return url.replace(/^.*\/(node_modules\/)/, '$1').replace(/^.*\/\.wrangler\/tmp\/[^/]+\//, '')
}

/** The inspector address of the workerd that runs the site (it was started with --inspector-addr). */
async function findInspector(processGroup) {
  for (const { pid } of processesOf(processGroup)) {
    let cmdline
    try { cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8') } catch { continue }
    if (!cmdline.includes('wrangler')) continue
    const args = cmdline.split('\0')
    const given = args[args.indexOf('--inspector-port') + 1]
    if (given) { const r = await fetch(`http://127.0.0.1:${given}/json/list`); console.log('json/list', r.status, (await r.clone().text()).slice(0, 300)); if (r.ok) return `http://127.0.0.1:${given}` }
    for (const port of listeningPortsOf(pid)) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(2000) })
        const body = await response.text()
        if (body.startsWith('[')) return `http://127.0.0.1:${port}`
      } catch {}
    }
  }
  throw new Error('no workerd inspector found')
}

function listeningPortsOf(pid) {
  const sockets = new Set()
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`)
      if (link.startsWith('socket:[')) sockets.add(link.slice(8, -1))
    } catch {}
  }
  const ports = []
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/)
      if (f[3] === '0A' && sockets.has(f[9])) ports.push(parseInt(f[1].split(':')[1], 16))
    }
  }
  return ports
}

async function connect(url) {
  const { default: WebSocketClient } = await import('ws')
  const ws = new WebSocketClient(url)
  ws.binaryType = 'arraybuffer'
  await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject })
  let next = 1
  const pending = new Map()
  ws.onmessage = (event) => {
    if (process.env.PROFILE_DEBUG) console.log('<-', String(typeof event.data === 'string' ? event.data : new TextDecoder().decode(event.data)).slice(0, 200))
    const message = JSON.parse(typeof event.data === 'string' ? event.data : new TextDecoder().decode(event.data))
    if (message.id && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id)
      pending.delete(message.id)
      message.error ? reject(new Error(message.error.message)) : resolve(message.result)
    }
  }
  return {
    send: (method, params = {}) => new Promise((resolve, reject) => {
      const id = next++
      pending.set(id, { resolve, reject })
      ws.send(JSON.stringify({ id, method, params }))
    }),
    close: () => ws.close(),
  }
}
