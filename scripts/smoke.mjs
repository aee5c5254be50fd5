#!/usr/bin/env node
// @ts-check
/**
 * `npm run smoke -- <base URL>`: checks a running site from outside, as an operator does after a
 * deploy (and .github/workflows/deploy.yml does after every staging deploy), one line per check
 * with what it saw: PASS, FAIL, or SKIP with why (the checks of the cache in front of the worker,
 * where there is none, as under `npm start`). Exit code 1 when any check failed.
 *
 *   npm run smoke -- https://erebuni-site-staging.example.workers.dev
 *   PUBLISH_SECRET=<the environment's hook secret> npm run smoke -- https://...   also the hook's signed checks
 *   npm run smoke -- https://... --version erebuni-site-production=<version id>   one version of a gradual deployment
 *
 * It sends no more than a visitor would (one request at a time, at most REQUEST_BUDGET), never a
 * contact message, and changes no content. How to read the result: README, "Checking a deploy".
 */
import { parseArgs } from 'node:util'
import { createClient, REQUEST_BUDGET } from './smoke/http.mjs'
import { checkImageRendition, checkPageCaching, checkRevalidation } from './smoke/caching.mjs'
import { checkContactRefusesCrossSite } from './smoke/contact.mjs'
import { checkIndexing, checkPages, checkSecurityHeaders } from './smoke/pages.mjs'
import { checkPublishHook } from './smoke/publish.mjs'
import { createReport } from './smoke/report.mjs'

/** The whole run's bound. */
const RUN_TIMEOUT_MS = 4 * 60_000

const USAGE = 'usage: npm run smoke -- <base URL, e.g. https://erebuni-site-staging.example.workers.dev> [--version <worker name>=<version id>]'
let origin
/** @type {Record<string, string>} */
const always = {}
try {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { version: { type: 'string' } } })
  origin = new URL(positionals[0] ?? '').origin
  if (positionals.length !== 1 || !/^https?:$/.test(new URL(origin).protocol)) throw new Error('not one http(s) address')
  if (values.version) {
    // Pins every request to one version of a gradual deployment (even one at 0 % of traffic):
    // https://developers.cloudflare.com/workers/versions-and-deployments/version-overrides/
    const [, worker, id] = /^([\w-]+)=([\w-]+)$/.exec(values.version) ?? []
    if (!worker || !id) throw new Error('--version is not <worker name>=<version id>')
    always['Cloudflare-Workers-Version-Overrides'] = `${worker}="${id}"`
  }
} catch {
  console.error(USAGE)
  process.exit(2)
}
const secret = process.env.PUBLISH_SECRET || undefined
setTimeout(() => {
  console.log(`FAIL  smoke: not finished within ${RUN_TIMEOUT_MS / 60_000} minutes`)
  process.exit(1)
}, RUN_TIMEOUT_MS).unref()

console.log(`smoke: ${origin}${always['Cloudflare-Workers-Version-Overrides'] ? ` (version ${always['Cloudflare-Workers-Version-Overrides']})` : ''}, ${new Date().toISOString()}; publish hook secret ${secret ? 'given' : 'not given'}`)
const client = createClient(origin, always)
const report = createReport()

const pages = await checkPages(client, report, origin)
if (!pages.size) finish('the site answered no page: nothing else to check')
const home = pages.get('/')
if (home) checkSecurityHeaders(report, 'a page (/)', home.headers)
const script = home && /<script[^>]*\ssrc="(\/[^"]+\.js)"/.exec(home.text)?.[1]
if (script) await report.guard(`security headers on a static file (${script})`, async () => checkSecurityHeaders(report, `a static file (${script})`, (await client.request(script)).headers))
await checkIndexing(client, report, origin)

const about = pages.get('/en/about')
await checkPageCaching(client, report, '/en')
if (about) await checkRevalidation(client, report, '/en/about', about)
if (home) await checkImageRendition(client, report, '/', home.text)

await checkPublishHook(client, report, secret)
await checkContactRefusesCrossSite(client, report)

finish()

/** @param {string} [why] */
function finish(why) {
  if (why) console.log(`FAIL  smoke: ${why}`)
  console.log(`${report.summary()}; ${client.sent} requests (budget ${REQUEST_BUDGET})`)
  process.exit(report.failed || why ? 1 : 0)
}
