#!/usr/bin/env node
/**
 * `EDITOR_TOKEN=... npm run content:draft -- <endpoint> <file.json> [--publish] [--api <origin>]`:
 * puts the payload in `file.json` as the draft of a page call of the bundled reference service
 * (content-service/src/routes/drafts.ts: get-home-page, get-about-page, get-enterprises-page,
 * contact-us, navbar-data), and with --publish makes it the published payload, which calls the
 * site's publish hook. The service: `--api`'s (one already running), else the local one, started
 * on a port of its own over the state `npm start` reads (.wrangler/state), with EDITOR_TOKEN and
 * PUBLISH_SECRET from the environment. A preview shows the draft (docs/operations.md, "Preview a
 * change"); visitors see it once published.
 *
 * Exit status: 0 with the service's answers on stdout; 1 when the service refused; 2 for a bad
 * command line, an unreadable or non-object file, or no EDITOR_TOKEN.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseOperatorCommand, UsageError } from '../lib/operator-options.mjs'
import { ROOT, serverLogFile, startSite } from '../lib/local-site.mjs'

const USAGE =
  'usage: EDITOR_TOKEN=... npm run content:draft -- <endpoint> <file.json> [--publish] [--api <origin>] [--product <name>]'

function options() {
  const { values, positionals } = parseOperatorCommand(
    {
      publish: { type: 'boolean', default: false },
      api: { type: 'string' },
      product: { type: 'string', default: 'erebuni' },
    },
    USAGE
  )
  if (positionals.length !== 2) throw new UsageError('give an endpoint and a JSON file')
  const [endpoint, file] = /** @type {[string, string]} */ (positionals)
  if (!/^[a-z-]+$/.test(endpoint))
    throw new UsageError(
      `the endpoint is a page call such as get-about-page, not ${JSON.stringify(endpoint)}`
    )
  if (values.api !== undefined && !/^https?:\/\/[^/]+\/?$/.test(values.api))
    throw new UsageError(`--api must be an http(s) origin, not ${JSON.stringify(values.api)}`)
  let payload
  try {
    payload = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new UsageError(`${file}: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new UsageError(`${file}: the draft must be a JSON object, the payload of ${endpoint}`)
  return { endpoint, payload, publish: values.publish, api: values.api, product: values.product }
}

/** The service to write to, and how to stop it when this script started it. */
async function serviceOf(api, product, token) {
  if (api) return { origin: api.replace(/\/$/, ''), stop: async () => {} }
  execFileSync('npm', ['run', '--silent', 'content:setup'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const vars = { EDITOR_TOKEN: token }
  if (process.env.PUBLISH_SECRET) vars.PUBLISH_SECRET = process.env.PUBLISH_SECRET
  const site = await startSite({
    configs: ['content-service/wrangler.toml'],
    persistTo: path.join(ROOT, '.wrangler/state'),
    readyPath: `/api/${encodeURIComponent(product)}/navbar-data`,
    logFile: serverLogFile('content-draft'),
    vars,
  })
  return { origin: site.origin, stop: site.stop }
}

async function main() {
  const { endpoint, payload, publish, api, product } = options()
  const token = process.env.EDITOR_TOKEN
  if (!token)
    throw new UsageError("EDITOR_TOKEN is not set: drafts are written with the editors' token")
  const service = await serviceOf(api, product, token)
  try {
    const base = `${service.origin}/api/${encodeURIComponent(product)}/drafts/${endpoint}`
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
    const calls = [{ method: 'PUT', url: base, body: JSON.stringify(payload) }]
    if (publish) calls.push({ method: 'POST', url: `${base}/publish`, body: undefined })
    for (const { method, url, body } of calls) {
      const response = await fetch(url, { method, headers, body })
      const answer = await response.text()
      console.log(`${method} ${new URL(url).pathname}: ${response.status} ${answer}`)
      if (!response.ok) process.exitCode = 1
      if (!response.ok) break
    }
  } finally {
    await service.stop()
  }
}

main().catch((error) => {
  if (error instanceof UsageError) {
    console.error(`content:draft: ${error.message}\n${USAGE}`)
    process.exit(2)
  }
  console.error(error)
  process.exit(1)
})
