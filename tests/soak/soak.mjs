/**
 * `npm run soak`: the site under concurrent load while its backend fails and recovers.
 *
 * The site runs under `wrangler dev` (scripts/lib/local-site.mjs) with API_HOST pointing at a Node
 * fake backend (scripts/lib/fake-backend.mjs) on loopback, short cache lifetimes (pages fresh 3 s, payloads
 * 5 s) and a 1.5 s backend time-out, so both caches keep going stale and refreshing during the run.
 * Once the home page answers, the backend cycles 500 -> healthy -> hang -> healthy -> garbage ->
 * healthy -> reset (connection dropped) -> healthy over SOAK_SECONDS (default 40), while
 * SOAK_CLIENTS (default 8) clients request every page in every language, an unknown page, a
 * redirect and conditional requests.
 *
 * Every answer must be a page (200, or 304 to If-None-Match), a proper error page (404 for the
 * unknown page; 503 with Retry-After and no-store while the backend is down and nothing is
 * cached), or the redirect; with security headers, whole, within ANSWER_DEADLINE_MS (30 s: a hung
 * answer, not a slow one on a busy machine). Then, with the backend healthy again, every page must
 * come back as 200 within RECOVERY_DEADLINE_MS (60 s; each page is asked until it does).
 *
 * Meanwhile SOAK_CONTACT_CLIENTS (default 2) visitors send contact messages throughout, each
 * from a client address of its own, half through the island's JSON route and half through the
 * plain form, one in five sent twice at once (a double click). Every one must be answered as
 * received (the backend never refuses one here); the contact outbox queues what the failing
 * backend cannot take, with its retry delays capped at 1 s (CONTACT_RETRY_MAX_DELAY_SECONDS).
 * After the backend recovers, every message the visitors were told was received must be in the
 * backend exactly once within SOAK_DELIVERY_SECONDS (default 60), and still once a few seconds
 * later. Exit code 1 on any failure.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { serverLogFile, startSite } from '../../scripts/lib/local-site.mjs'
import { startFakeBackend } from '../../scripts/lib/fake-backend.mjs'

const SECONDS = Number(process.env.SOAK_SECONDS) || 40
const CLIENTS = Number(process.env.SOAK_CLIENTS) || 8
const PAGES = ['', '/en', '/ru'].flatMap((prefix) =>
  [
    '/',
    '/about',
    '/enterprises',
    '/contact-us',
    '/enterprises/1-arabkir-residence',
    '/enterprises/3-northern-avenue-business-centre',
  ].map((page) => (page === '/' ? prefix || '/' : prefix + page))
)
const SCHEDULE = ['500', 'hang', 'garbage', 'reset'].flatMap((mode) => [mode, 'healthy'])
const CONTACT_CLIENTS = Number(process.env.SOAK_CONTACT_CLIENTS ?? 2)
const DELIVERY_SECONDS = Number(process.env.SOAK_DELIVERY_SECONDS) || 60
/** Deadlines, not speed targets (the bench measures speed): far beyond what a loaded 2-core machine takes. */
const ANSWER_DEADLINE_MS = 30_000
const RECOVERY_DEADLINE_MS = 60_000

const backend = await startFakeBackend()
const state = mkdtempSync(path.join(os.tmpdir(), 'soak-state-'))
const site = await startSite({
  vars: {
    API_HOST: backend.origin,
    API_TIMEOUT_MS: '1500',
    CONTENT_TTL: '5',
    PAGE_CACHE_TTL: '3',
    CONTACT_RETRY_MAX_DELAY_SECONDS: '1',
  },
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
/** @type {Set<string>} comments of the messages visitors were told were received */
const received = new Set()
const contact = {
  sends: 0,
  doubleSubmits: 0,
  byMode: /** @type {Record<string, Record<string, number>>} */ ({}),
}
/** @type {{ comments: string, stored: number }[]} */
let deliveryProblems = []
let deliveredAfterMs = 0

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
  await Promise.all([
    switcher,
    ...Array.from({ length: CLIENTS }, () => client(end)),
    ...Array.from({ length: CONTACT_CLIENTS }, (_, index) => contactClient(end, index)),
  ])

  mode = 'healthy'
  backend.setMode('healthy')
  const recovered = Date.now()
  await recovers()
  deliveredAfterMs = (await delivered()) - recovered
} finally {
  await site.stop()
  await backend.close()
  rmSync(state, { recursive: true, force: true })
}

const sorted = latencies.sort((a, b) => a - b)
const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
console.log(
  `Soak: ${SECONDS} s, ${CLIENTS} clients, ${latencies.length} requests; p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`
)
console.log('Backend calls by mode:', backend.calls)
console.table(outcomes)
if (CONTACT_CLIENTS > 0) {
  const { total, replays, byMode } = backend.messageCalls
  console.log(
    `Contact: ${contact.sends} messages sent (${contact.doubleSubmits} of them twice at once), ${received.size} answered as received; ` +
      `the backend got ${total} POST messages (${replays} repeats of a stored message, recognised by Idempotency-Key) and stores ${backend.messages.length}; ` +
      `all delivered ${(deliveredAfterMs / 1000).toFixed(1)} s after it recovered`
  )
  console.log('POST messages by backend mode:', byMode)
  console.table(contact.byMode)
  for (const { comments, stored } of deliveryProblems) {
    failures.push({
      mode: 'healthy (after)',
      path: '/api/contact',
      problem: `a message told as received is stored ${stored} times: ${comments}`,
    })
  }
}
if (failures.length) {
  console.error(`${failures.length} bad answers, e.g.:`)
  for (const failure of failures.slice(0, 15))
    console.error(`  [backend ${failure.mode}] ${failure.path}: ${failure.problem}`)
  process.exit(1)
}
console.log('Every answer was a page, a proper error page or a redirect, and every page came back.')
if (CONTACT_CLIENTS > 0)
  console.log('Every message told as received is in the backend exactly once.')

async function client(end) {
  while (Date.now() < end) {
    const roll = Math.random()
    const target =
      roll < 0.05
        ? '/en/nope'
        : roll < 0.08
          ? '/fr/about'
          : PAGES[Math.floor(Math.random() * PAGES.length)]
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
    const response = await fetch(site.origin + target, {
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(ANSWER_DEADLINE_MS),
    })
    const body = await response.text()
    latencies.push(Date.now() - started)
    const problem = judge(target, headers, response, body)
    outcome = `${response.status} ${response.headers.get('X-Page-Cache') ?? ''}`.trim()
    if (problem)
      failures.push({ mode: during, path: target, problem: `${response.status}: ${problem}` })
    if (response.status === 200 && response.headers.get('ETag'))
      etags.set(target, response.headers.get('ETag'))
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
  if (target === '/fr/about')
    return response.status === 302 && response.headers.get('Location') === '/'
      ? ''
      : 'not the redirect home'
  if (response.status === 304) return headers['If-None-Match'] ? '' : '304 without If-None-Match'
  if (![200, 404, 503].includes(response.status)) return 'unexpected status'
  if (
    !/^text\/html/.test(type) ||
    !/^<!DOCTYPE html>/i.test(body) ||
    !body.trimEnd().endsWith('</html>')
  )
    return 'not a whole HTML page'
  if (target === '/en/nope') return response.status === 404 ? '' : 'the unknown page is not a 404'
  if (response.status === 404) return 'a page answered 404'
  if (response.status === 503) {
    if (
      !response.headers.get('Retry-After') ||
      response.headers.get('Cache-Control') !== 'no-store'
    )
      return '503 without Retry-After/no-store'
    return ''
  }
  return /<main\b/.test(body) ? '' : 'a 200 without the page'
}

/**
 * One visitor after another sending the contact form: a new client address per message (the
 * rate limit counts 5 a minute per client), the island's JSON and the plain form in turn, and
 * every fifth message sent twice at once.
 */
async function contactClient(end, index) {
  let n = 0
  while (Date.now() < end) {
    n += 1
    const comments = `Soak message ${index}-${n} ${process.pid}`
    const client = `198.51.100.${index}-${n}-${process.pid}`
    const viaForm = n % 2 === 0
    const twice = n % 5 === 0
    contact.sends += 1
    if (twice) contact.doubleSubmits += 1
    const sends = Array.from({ length: twice ? 2 : 1 }, () =>
      sendMessage(comments, client, viaForm)
    )
    const answers = await Promise.all(sends)
    if (answers.some((answer) => answer.ok)) received.add(comments)
    await sleep(200)
  }
}

/** Sends one message as a browser would; ok when the visitor is told it was received. */
async function sendMessage(comments, client, viaForm) {
  const during = mode
  const fields = { name: 'Soak Visitor', email: 'soak@example.com', comments, website: '' }
  const headers = {
    Origin: site.origin,
    'Sec-Fetch-Site': 'same-origin',
    'CF-Connecting-IP': client,
  }
  let outcome
  let ok = false
  try {
    const response = await fetch(`${site.origin}${viaForm ? '/en/contact-us' : '/api/contact'}`, {
      method: 'POST',
      headers: {
        ...headers,
        'Content-Type': viaForm ? 'application/x-www-form-urlencoded' : 'application/json',
      },
      body: viaForm ? new URLSearchParams(fields).toString() : JSON.stringify(fields),
      redirect: 'manual',
      signal: AbortSignal.timeout(ANSWER_DEADLINE_MS),
    })
    const body = await response.text()
    ok = viaForm
      ? response.status === 303 && (response.headers.get('Location') ?? '').endsWith('?sent=1')
      : response.status === 200 && body === '{"ok":true}'
    outcome = `${viaForm ? 'form' : 'island'} ${response.status}`
    if (!ok)
      failures.push({
        mode: during,
        path: viaForm ? '/en/contact-us' : '/api/contact',
        problem: `${response.status}: a message not answered as received`,
      })
  } catch (error) {
    outcome = 'no answer'
    failures.push({ mode: during, path: '/api/contact', problem: String(error) })
  }
  contact.byMode[during] ??= {}
  contact.byMode[during][outcome] = (contact.byMode[during][outcome] ?? 0) + 1
  return { ok }
}

/**
 * With the backend healthy, every message told as received arrives within DELIVERY_SECONDS;
 * then, a few seconds later (any retry still under way has run), each is stored exactly once.
 * Resolves with the time the last one arrived.
 */
async function delivered() {
  const count = (comments) =>
    backend.messages.filter((message) => message.comments === comments).length
  const deadline = Date.now() + DELIVERY_SECONDS * 1000
  while (Date.now() < deadline && [...received].some((comments) => count(comments) === 0))
    await sleep(250)
  const arrived = Date.now()
  await sleep(3_000)
  deliveryProblems = [...received]
    .map((comments) => ({ comments, stored: count(comments) }))
    .filter(({ stored }) => stored !== 1)
  return arrived
}

/** With the backend healthy, every page answers 200 within RECOVERY_DEADLINE_MS. */
async function recovers() {
  const deadline = Date.now() + RECOVERY_DEADLINE_MS
  for (const page of PAGES) {
    let status = 0
    while (Date.now() < deadline) {
      status = await fetch(site.origin + page, {
        signal: AbortSignal.timeout(ANSWER_DEADLINE_MS),
      }).then(
        (r) => r.text().then(() => r.status),
        () => 0
      )
      if (status === 200) break
      await sleep(500)
    }
    if (status !== 200)
      failures.push({
        mode: 'healthy (after)',
        path: page,
        problem: `still ${status} ${RECOVERY_DEADLINE_MS / 1000} s after the backend recovered`,
      })
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
