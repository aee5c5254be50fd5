/**
 * `npm run test:freshness`: the freshness contract under a real `wrangler dev`, where Cron Triggers
 * do not fire by themselves (docs/decisions/0004-content-freshness.md).
 *
 * The site runs against a Node fake backend (fake-backend.mjs) with CONTENT_TTL=2 and a
 * PUBLISH_SECRET. An editor changes the home page's services title in the backend:
 * 1. before CONTENT_TTL has passed the page may still show the old title;
 * 2. once it has, the change is on the page within one more visit;
 * 3. after a signed call of the publish hook, a further change is on the page at once.
 * Every step is bounded; exit code 1 on any failure.
 */
import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { serverLogFile, startSite } from '../../scripts/lib/local-site.mjs'
import { startFakeBackend } from './fake-backend.mjs'

const TTL_SECONDS = 2
const SECRET = `freshness-${Math.random().toString(36).slice(2)}`
const failures = []

const backend = await startFakeBackend()
const state = mkdtempSync(path.join(os.tmpdir(), 'freshness-state-'))
const site = await startSite({
  vars: { API_HOST: backend.origin, CONTENT_TTL: String(TTL_SECONDS), PUBLISH_SECRET: SECRET },
  persistTo: state,
  logFile: serverLogFile('freshness'),
})

try {
  await showsTitle('What we do', 'the seed before any edit')

  backend.edit('home', { servicesTitle: 'Services after the TTL' })
  await sleep(TTL_SECONDS * 1000 + 500)
  const first = await servicesTitleOn('/en')
  const second = await servicesTitleOn('/en')
  console.log(`after CONTENT_TTL: first visit "${first}", second visit "${second}"`)
  if (second !== 'Services after the TTL') failures.push(`the change was not on the page within one more visit after CONTENT_TTL (saw "${first}", then "${second}")`)

  backend.edit('home', { servicesTitle: 'Services after the hook' })
  const body = JSON.stringify({ payloads: ['get-home-page'] })
  const timestamp = String(Math.floor(Date.now() / 1000))
  const signature = createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex')
  const hook = await fetch(`${site.origin}/api/publish`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Publish-Timestamp': timestamp, 'X-Publish-Signature': `sha256=${signature}` },
    body,
    signal: AbortSignal.timeout(15_000),
  })
  console.log(`publish hook: ${hook.status} ${await hook.text()}`)
  if (hook.status !== 200) failures.push(`the publish hook answered ${hook.status}`)
  await showsTitle('Services after the hook', 'the first visit after the hook')

  const unsigned = await fetch(`${site.origin}/api/publish`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(15_000) })
  if (unsigned.status !== 401) failures.push(`an unsigned hook call answered ${unsigned.status}, not 401`)
} finally {
  await site.stop()
  await backend.close()
  rmSync(state, { recursive: true, force: true })
}

if (failures.length) {
  for (const failure of failures) console.error(`FAIL: ${failure}`)
  process.exit(1)
}
console.log('Freshness: a backend edit reached the page within one visit after CONTENT_TTL, and at once after the publish hook.')

/** The services section's heading on `page`. */
async function servicesTitleOn(page) {
  const response = await fetch(site.origin + page, { signal: AbortSignal.timeout(15_000) })
  const html = await response.text()
  const match = /<section[^>]*id="services"[^>]*>[\s\S]*?<h2[^>]*>([\s\S]*?)<\/h2>/.exec(html)
  return match ? match[1].replace(/<[^>]+>/g, '').trim() : `(no services heading; HTTP ${response.status})`
}

async function showsTitle(expected, when) {
  const title = await servicesTitleOn('/en')
  if (title !== expected) failures.push(`${when}: /en shows "${title}", expected "${expected}"`)
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
