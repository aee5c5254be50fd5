/**
 * `npm run profile:render`: where a page request spends its CPU, read from the Workers runtime
 * itself. Starts the site as the bench does (production React build, scripts/lib/local-site.mjs),
 * connects to the site worker's V8 inspector through wrangler, samples the worker's CPU while it
 * answers PROFILE_PATH (default /en) PROFILE_REQUESTS times (default 300) one after another,
 * rendered from cached payloads (PROFILE_BYPASS=page, the default), from the backend (=all) or
 * from the page cache (=none), and prints the functions and the files with the most self time per
 * request. The whole profile is written for Chrome DevTools (Performance panel, "Load profile"):
 * PROFILE_OUT, default .wrangler/profile/render.cpuprofile.
 *
 * Sampling every 50 µs roughly doubles what a request costs, and native work (KV, streams, the
 * runtime's own gzip) is attributed to the JavaScript that called it: read the ranking, not the
 * absolute figures; `npm run bench` measures those.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { HARNESS_WORKER, processesOf, ROOT, startSite } from './lib/local-site.mjs'

const PAGE = process.env.PROFILE_PATH || '/en'
const REQUESTS = Number(process.env.PROFILE_REQUESTS) || 300
const OUT = process.env.PROFILE_OUT || path.join(ROOT, '.wrangler/profile/render.cpuprofile')
const token = randomBytes(16).toString('hex')
/** PROFILE_BYPASS: 'page' (default: rendered from cached payloads), 'all' (every payload from the backend) or 'none' (the cached page). */
const MODE = process.env.PROFILE_BYPASS || 'page'
const BYPASS = {
  ...(MODE === 'none' ? {} : { 'X-Cache-Bypass': MODE, 'X-Cache-Bypass-Token': token }),
  'Accept-Encoding': 'gzip, br',
}

const site = await startSite({
  // The bypass is the harness worker's (scripts/lib/harness-worker/), around the site's own.
  script: HARNESS_WORKER,
  vars: { CACHE_BYPASS_TOKEN: token },
  production: true,
  logFile: path.join(ROOT, '.wrangler/profile/wrangler.log'),
})
try {
  const inspector = await findInspector(site.processGroup)
  const targets = await (await fetch(`${inspector}/json/list`)).json()
  const target =
    targets.find((t) => /erebuni-site$/.test(t.id)) ??
    (targets.length === 1 ? targets[0] : undefined)
  if (!target)
    throw new Error(
      `no site worker among the inspector's targets: ${targets.map((t) => t.id).join(', ')}`
    )
  const session = await connect(target.webSocketDebuggerUrl)
  // Warm up: payloads into KV and the isolate's memos, JIT.
  for (let i = 0; i < 50; i++) await get(site.origin + PAGE)
  await session.send('Profiler.enable')
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
  const idle =
    self.get([...byId.values()].find((n) => n.callFrame.functionName === '(idle)')?.id) ?? 0
  console.log(
    `${REQUESTS} requests of ${PAGE}; sampled ${(total / 1000).toFixed(0)} ms, ${ms(total - idle)} ms/request not idle`
  )
  console.log('\nSelf time per request, by function:')
  for (const [name, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`${ms(us).padStart(8)} ms  ${name}`)
  console.log('\nBy file:')
  for (const [name, us] of [...files].sort((a, b) => b[1] - a[1]).slice(0, 20))
    console.log(`${ms(us).padStart(8)} ms  ${name}`)
  console.log(`\nProfile: ${OUT}`)
}

function shortUrl(url) {
  return url.replace(/^.*\/(node_modules\/)/, '$1').replace(/^.*\/\.wrangler\/tmp\/[^/]+\//, '')
}

/**
 * wrangler's inspector for the site worker: `--inspector-port` on wrangler's command line
 * (scripts/lib/local-site.mjs sets it). workerd's own inspector behind it takes one session, wrangler's.
 */
async function findInspector(processGroup) {
  for (const { pid } of processesOf(processGroup)) {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    const index = args.indexOf('--inspector-port')
    if (!args.some((arg) => arg.endsWith('wrangler.js')) || index < 0) continue
    return `http://127.0.0.1:${args[index + 1]}`
  }
  throw new Error("no wrangler process with --inspector-port in the site's process group")
}

async function connect(url) {
  // Node's own WebSocket client (global since Node 22, which the `node` devDependency provides).
  const ws = new WebSocket(url)
  ws.binaryType = 'arraybuffer'
  await new Promise((resolve, reject) => {
    ws.onopen = resolve
    ws.onerror = reject
  })
  let next = 1
  const pending = new Map()
  ws.onmessage = (event) => {
    const message = JSON.parse(
      typeof event.data === 'string' ? event.data : new TextDecoder().decode(event.data)
    )
    if (message.id && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id)
      pending.delete(message.id)
      message.error ? reject(new Error(message.error.message)) : resolve(message.result)
    }
  }
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = next++
        pending.set(id, { resolve, reject })
        ws.send(JSON.stringify({ id, method, params }))
      }),
    close: () => ws.close(),
  }
}
