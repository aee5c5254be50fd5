/**
 * `npm run soak`: the site under concurrent load while its backend fails and recovers.
 *
 * The site runs under `wrangler dev` (scripts/local-site.mjs) with API_HOST pointing at a Node
 * fake backend (fake-backend.mjs) on loopback, short cache lifetimes (pages fresh 3 s, payloads
 * 5 s) and a 1.5 s backend time-out, so both caches keep going stale and refreshing during the run.
 * Once the home page answers, the backend cycles 500 -> healthy -> hang -> healthy -> garbage ->
 * healthy -> reset (connection dropped) -> healthy over SOAK_SECONDS (default 40), while
 * SOAK_CLIENTS (default 8) clients request every page in every language, an unknown page, a
 * redirect and conditional requests.
 *
 * Every answer must be a page (200, or 304 to If-None-Match), a proper error page (404 for the
 * unknown page; 503 with Retry-After and no-store while the backend is down and nothing is
 * cached), or the redirect; with security headers, whole, within 10 s. Then, with the backend
 * healthy again, every page must come back as 200. Exit code 1 on any failure.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { serverLogFile, startSite } from '../../scripts/local-site.mjs'
import { startFakeBackend } from './fake-backend.mjs'

const SECONDS = Number(process.env.SOAK_SECONDS) || 40
const CLIENTS = Number(process.env.SOAK_CLIENTS) || 8
const PAGES = ['', '/en', '/ru'].flatMap((prefix) =>
  ['/', '/about', '/enterprises', '/contact-us'].map((page) => (page === '/' ? prefix || '/' : prefix + page)),
)
const SCHEDULE = ['500', 'hang', 'garbage', 'reset'].flatMap((mode) => [mode, 'healthy'])

const backend = await startFakeBackend()
const state = mkdtempSync(path.join(os.tmpdir(), 'soak-state-'))
const site = await startSite({
  vars: { API_HOST: backend.origin, API_TIMEOUT_MS: '1500', CONTENT_TTL: '5', PAGE_CACHE_TTL: '3' },
  persistTo: state,
  production: true,
  logFile: serverLogFile('soak'),
})

/** @type {{ mode: string, path: string, problem: string }[]} */
const failures = []
/** @type {Record<string, Record<string, number>>} outcome counts per backend mode */
const outcomes = {}
/** @type {number[]} */
const latencies = []
const etags = new Map()
let mode = 'healthy'

try {
  const end = Date.now() + SECONDS * 1000
  const phaseMs = (SECONDS * 1000) / SCHEDULE.length
  // The backend fails first, while only the home page (the readiness check) has been rendered.
  const switcher = (async () => {
    for (const next of SCHEDULE) {
      mode = next
      backend.setMode(next)
      await sleep(phaseMs)
    }
  })()
  await Promise.all([switcher, ...Array.from({ length: CLIENTS }, () => client(end))])

  mode = 'healthy'
  backend.setMode('healthy')
  await recovers()
} finally {
  await site.stop()
  await backend.close()
  rmSync(state, { recursive: true, force: true })
}

const sorted = latencies.sort((a, b) => a - b)
const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
console.log(`Soak: ${SECONDS} s, ${CLIENTS} clients, ${latencies.length} requests; p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`)
console.log('Backend calls by mode:', backend.calls)
console.table(outcomes)
if (failures.length) {
  console.error(`${failures.length} bad answers, e.g.:`)
  for (const failure of failures.slice(0, 15)) console.error(`  [backend ${failure.mode}] ${failure.path}: ${failure.problem}`)
  process.exit(1)
}
console.log('Every answer was a page, a proper error page or a redirect, and every page came back.')

async function client(end) {
  while (Date.now() < end) {
    const roll = Math.random()
    const target = roll < 0.05 ? '/en/nope' : roll < 0.08 ? '/fr/about' : PAGES[Math.floor(Math.random() * PAGES.length)]
    const conditional = roll > 0.8 && etags.has(target)
    await check(target, conditional ? { 'If-None-Match': etags.get(target) } : {})
  }
}

/** Requests `target` and records whether the answer is acceptable. */
async function check(target, headers) {
  const during = mode
  const started = Date.now()
  let outcome
  try {
    const response = await fetch(site.origin + target, { headers, redirect: 'manual', signal: AbortSignal.timeout(10_000) })
    const body = await response.text()
    latencies.push(Date.now() - started)
    const problem = judge(target, headers, response, body)
    outcome = `${response.status} ${response.headers.get('X-Page-Cache') ?? ''}`.trim()
    if (problem) failures.push({ mode: during, path: target, problem: `${response.status}: ${problem}` })
    if (response.status === 200 && response.headers.get('ETag')) etags.set(target, response.headers.get('ETag'))
  } catch (error) {
    outcome = 'no answer'
    failures.push({ mode: during, path: target, problem: String(error) })
  }
  outcomes[during] ??= {}
  outcomes[during][outcome] = (outcomes[during][outcome] ?? 0) + 1
}

/** What is wrong with an answer, or '' when nothing is. */
function judge(target, headers, response, body) {
  const type = response.headers.get('Content-Type') ?? ''
  if (!response.headers.get('Content-Security-Policy')) return 'no security headers'
  if (target === '/fr/about') return response.status === 302 && response.headers.get('Location') === '/' ? '' : 'not the redirect home'
  if (response.status === 304) return headers['If-None-Match'] ? '' : '304 without If-None-Match'
  if (![200, 404, 503].includes(response.status)) return 'unexpected status'
  if (!/^text\/html/.test(type) || !/^<!DOCTYPE html>/i.test(body) || !body.trimEnd().endsWith('</html>')) return 'not a whole HTML page'
  if (target === '/en/nope') return response.status === 404 ? '' : 'the unknown page is not a 404'
  if (response.status === 404) return 'a page answered 404'
  if (response.status === 503) {
    if (!response.headers.get('Retry-After') || response.headers.get('Cache-Control') !== 'no-store') return '503 without Retry-After/no-store'
    return ''
  }
  return /<main\b/.test(body) ? '' : 'a 200 without the page'
}

/** With the backend healthy, every page answers 200 within 20 s. */
async function recovers() {
  const deadline = Date.now() + 20_000
  for (const page of PAGES) {
    let status = 0
    while (Date.now() < deadline) {
      status = (await fetch(site.origin + page).then((r) => r.text().then(() => r.status), () => 0))
      if (status === 200) break
      await sleep(500)
    }
    if (status !== 200) failures.push({ mode: 'healthy (after)', path: page, problem: `still ${status} after the backend recovered` })
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
