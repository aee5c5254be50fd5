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
 * contact message, and changes no content. How to read the result: docs/operations.md, "Checking a deploy".
 */
import { parseArgs } from 'node:util'
import { createClient, REQUEST_BUDGET } from './smoke/http.mjs'
import { checkImageRendition, checkPageCaching, checkRevalidation } from './smoke/caching.mjs'
import { checkContactRefusesCrossSite } from './smoke/contact.mjs'
import { checkHttpsRedirect } from './smoke/https.mjs'
import { checkIndexing, checkPages, checkSecurityHeaders, projectKeysIn } from './smoke/pages.mjs'
import { checkPublishHook } from './smoke/publish.mjs'
import { createReport } from './smoke/report.mjs'

/** The whole run's bound. */
const RUN_TIMEOUT_MS = 4 * 60_000

const USAGE =
  'usage: npm run smoke -- <base URL, e.g. https://erebuni-site-staging.example.workers.dev> [--version <worker name>=<version id>]'

// Exit codes are set, never forced with process.exit(), which would cut off the output still on its
// way through a pipe (the deploy workflow's log, `npm test`'s log files).
const options = parseArguments()
if (!options) {
  console.error(USAGE)
  process.exitCode = 2
} else {
  setTimeout(() => {
    process.exitCode = 1
    process.stdout.write(
      `FAIL  smoke: not finished within ${RUN_TIMEOUT_MS / 60_000} minutes\n`,
      () => process.exit()
    )
  }, RUN_TIMEOUT_MS).unref()
  process.exitCode = await smoke(
    options.origin,
    options.always,
    process.env.PUBLISH_SECRET || undefined
  )
}

/** @returns {{ origin: string, always: Record<string, string> } | null} null when the arguments are wrong */
function parseArguments() {
  try {
    const { values, positionals } = parseArgs({
      allowPositionals: true,
      options: { version: { type: 'string' } },
    })
    const origin = new URL(positionals[0] ?? '').origin
    if (positionals.length !== 1 || !/^https?:$/.test(new URL(origin).protocol)) return null
    /** @type {Record<string, string>} */
    const always = {}
    if (values.version) {
      // Pins every request to one version of a gradual deployment (even one at 0 % of traffic):
      // https://developers.cloudflare.com/workers/versions-and-deployments/version-overrides/
      const [, worker, id] = /^([\w-]+)=([\w-]+)$/.exec(values.version) ?? []
      if (!worker || !id) return null
      always['Cloudflare-Workers-Version-Overrides'] = `${worker}="${id}"`
    }
    return { origin, always }
  } catch {
    return null
  }
}

/**
 * Every check, one after another; each prints its line as it ends.
 * @param {string} origin
 * @param {Record<string, string>} always headers for every request
 * @param {string | undefined} secret the environment's PUBLISH_SECRET
 * @returns {Promise<number>} the exit code
 */
async function smoke(origin, always, secret) {
  const pinned = always['Cloudflare-Workers-Version-Overrides']
  console.log(
    `smoke: ${origin}${pinned ? ` (version ${pinned})` : ''}, ${new Date().toISOString()}; publish hook secret ${secret ? 'given' : 'not given'}`
  )
  const client = createClient(origin, always)
  const report = createReport()
  const finish = (/** @type {string} */ why = '') => {
    if (why) console.log(`FAIL  smoke: ${why}`)
    console.log(`${report.summary()}; ${client.sent} requests (budget ${REQUEST_BUDGET})`)
    return report.failed || why ? 1 : 0
  }

  await checkHttpsRedirect(report, origin, always, '/en/about')
  const pages = await checkPages(client, report, origin)
  if (!pages.size) return finish('the site answered no page: nothing else to check')
  const home = pages.get('/')
  if (home) checkSecurityHeaders(report, 'a page (/)', home.headers)
  const script = home && /<script[^>]*\ssrc="(\/[^"]+\.js)"/.exec(home.text)?.[1]
  if (script)
    await report.guard(`security headers on a static file (${script})`, async () =>
      checkSecurityHeaders(
        report,
        `a static file (${script})`,
        (await client.request(script)).headers
      )
    )
  await checkIndexing(client, report, origin, projectKeysIn(pages.get('/enterprises')?.text ?? ''))

  const about = pages.get('/en/about')
  await checkPageCaching(client, report, '/en')
  if (about) await checkRevalidation(client, report, '/en/about', about)
  if (home) await checkImageRendition(client, report, '/', home.text)

  await checkPublishHook(client, report, secret)
  await checkContactRefusesCrossSite(client, report)
  return finish()
}
