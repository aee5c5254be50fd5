/**
 * `npm run test:freshness`: the freshness contract under a real `wrangler dev`, where Cron Triggers
 * do not fire by themselves (docs/decisions/0004-content-freshness.md).
 *
 * The site runs against a Node fake backend (scripts/lib/fake-backend.mjs) with CONTENT_TTL=2 and a
 * PUBLISH_SECRET. An editor changes the home page's services title in the backend:
 * 1. before CONTENT_TTL has passed the page may still show the old title;
 * 2. once it has, visits bring the change to the page: a visit past the TTL starts the refresh in
 *    the background and a later visit shows it. The check visits until the change is there, with
 *    a deadline (REFRESH_DEADLINE_MS), so a busy machine, whose background refresh may outlast the
 *    next visit, waits longer instead of failing; without the request-side refresh the page would
 *    keep the old title forever, as no Cron Trigger fires under `wrangler dev`. That the refresh
 *    needs exactly one visit is proven with a driven clock in tests/worker/freshness.test.ts;
 * 3. after a signed call of the publish hook, a further change is on the page at once (the hook
 *    answers once the new payload is stored, so this waits for nothing).
 * Every step is bounded; exit code 1 on any failure.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { serverLogFile, startSite } from '../../scripts/lib/local-site.mjs'
import { signedJsonHeaders } from '../../scripts/lib/publish-signing.mjs'
import { startFakeBackend } from '../../scripts/lib/fake-backend.mjs'

const TTL_SECONDS = 2
/** How long visits past CONTENT_TTL may take to bring the change: far beyond a loaded machine's refresh. */
const REFRESH_DEADLINE_MS = 60_000
/** Between two of those visits. */
const VISIT_INTERVAL_MS = 250
const SECRET = `freshness-${Math.random().toString(36).slice(2)}`
const failures = []

const backend = await startFakeBackend()
const state = mkdtempSync(path.join(os.tmpdir(), 'freshness-state-'))
const site = await startSite({
  // IMAGE_WARM_BUDGET_MS: no renditions warm-up after the publish, which proves freshness, not images.
  vars: {
    API_HOST: backend.origin,
    CONTENT_TTL: String(TTL_SECONDS),
    PUBLISH_SECRET: SECRET,
    IMAGE_WARM_BUDGET_MS: '1',
  },
  persistTo: state,
  logFile: serverLogFile('freshness'),
})

try {
  await showsTitle('What we do', 'the seed before any edit')

  backend.edit('home', { servicesTitle: 'Services after the TTL' })
  await sleep(TTL_SECONDS * 1000 + 500)
  const seen = await visitUntilShown('Services after the TTL')
  console.log(
    `after CONTENT_TTL: ${seen.length} visit(s) in ${seen.seconds} s: ${seen.titles.join(' -> ')}`
  )
  if (!seen.shown)
    failures.push(
      `the change was not on the page within ${REFRESH_DEADLINE_MS / 1000} s of visits after CONTENT_TTL (${seen.length} visits saw ${[...new Set(seen.titles)].map((title) => `"${title}"`).join(', ')})`
    )

  backend.edit('home', { servicesTitle: 'Services after the hook' })
  const body = JSON.stringify({ payloads: ['get-home-page'] })
  const hook = await fetch(`${site.origin}/api/publish`, {
    method: 'POST',
    headers: signedJsonHeaders(SECRET, body),
    body,
    signal: AbortSignal.timeout(15_000),
  })
  console.log(`publish hook: ${hook.status} ${await hook.text()}`)
  if (hook.status !== 200) failures.push(`the publish hook answered ${hook.status}`)
  await showsTitle('Services after the hook', 'the first visit after the hook')

  const unsigned = await fetch(`${site.origin}/api/publish`, {
    method: 'POST',
    body: '{}',
    signal: AbortSignal.timeout(15_000),
  })
  if (unsigned.status !== 401)
    failures.push(`an unsigned hook call answered ${unsigned.status}, not 401`)
} finally {
  await site.stop()
  await backend.close()
  rmSync(state, { recursive: true, force: true })
}

if (failures.length) {
  for (const failure of failures) console.error(`FAIL: ${failure}`)
  process.exit(1)
}
console.log(
  'Freshness: a backend edit reached the page through visits after CONTENT_TTL, and at once after the publish hook.'
)

/** The services section's heading on `page`. */
async function servicesTitleOn(page) {
  const response = await fetch(site.origin + page, { signal: AbortSignal.timeout(15_000) })
  const html = await response.text()
  const match = /<section[^>]*id="services"[^>]*>[\s\S]*?<h2[^>]*>([\s\S]*?)<\/h2>/.exec(html)
  return match
    ? match[1].replace(/<[^>]+>/g, '').trim()
    : `(no services heading; HTTP ${response.status})`
}

/**
 * Visits /en until it shows `expected` or REFRESH_DEADLINE_MS has passed.
 * @param {string} expected
 */
async function visitUntilShown(expected) {
  const started = Date.now()
  /** @type {string[]} */
  const titles = []
  let shown = false
  while (!shown && Date.now() - started < REFRESH_DEADLINE_MS) {
    if (titles.length) await sleep(VISIT_INTERVAL_MS)
    titles.push(await servicesTitleOn('/en'))
    shown = titles.at(-1) === expected
  }
  return {
    shown,
    titles,
    length: titles.length,
    seconds: ((Date.now() - started) / 1000).toFixed(1),
  }
}

async function showsTitle(expected, when) {
  const title = await servicesTitleOn('/en')
  if (title !== expected) failures.push(`${when}: /en shows "${title}", expected "${expected}"`)
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
