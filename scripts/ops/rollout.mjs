#!/usr/bin/env node
/**
 * Gradual rollout of an uploaded site version (.github/workflows/deploy.yml, or by hand):
 *
 *   node scripts/ops/rollout.mjs --env production --tag v1.4.0 --percentage 10
 *
 * finds the version uploaded with that tag (`wrangler versions upload --tag`) and deploys it to
 * that share of traffic, the rest staying on the version serving now (the one with the most
 * traffic that is not the new one). At 100, or when nothing is deployed yet, it takes all traffic.
 * Run it again with a higher percentage to go on, or `wrangler rollback` to step back (docs/operations.md,
 * "Rolling back"). Needs CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID like any wrangler call.
 */
import { spawnSync } from 'node:child_process'
import { appendFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
/** The wrangler CLI; tests/tooling/rollout.test.ts points ROLLOUT_WRANGLER at a stand-in for the API. */
const WRANGLER =
  process.env.ROLLOUT_WRANGLER ?? path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js')

const { values } = parseArgs({
  options: {
    env: { type: 'string' },
    tag: { type: 'string' },
    percentage: { type: 'string', default: '100' },
    message: { type: 'string' },
  },
})
const percentage = Number(values.percentage)
if (!values.env || !values.tag)
  fail('usage: rollout.mjs --env <staging|production> --tag <version tag> [--percentage 1-100]')
if (!Number.isInteger(percentage) || percentage < 1 || percentage > 100)
  fail(`--percentage must be a whole number from 1 to 100, not ${values.percentage}`)

function fail(message) {
  console.error(`rollout: ${message}`)
  process.exit(1)
}

/** The JSON a `--json` command printed, past anything wrangler printed before it. */
function parseJson(stdout) {
  return JSON.parse(stdout.slice(stdout.search(/[[{]/)))
}

function wrangler(args, { json = false } = {}) {
  const result = spawnSync(process.execPath, [WRANGLER, ...args, `--env=${values.env}`], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  })
  if (!json) process.stdout.write(result.stdout ?? '')
  return { ok: result.status === 0, stdout: result.stdout ?? '' }
}

const versions = wrangler(['versions', 'list', '--json'], { json: true })
if (!versions.ok) fail('could not list the uploaded versions')
const uploaded = parseJson(versions.stdout).find(
  (version) => version.annotations?.['workers/tag'] === values.tag
)
if (!uploaded)
  fail(
    `no version of the ${values.env} worker is tagged ${values.tag}: upload it first (wrangler versions upload --env ${values.env} --tag ${values.tag})`
  )

const status = wrangler(['deployments', 'status', '--json'], { json: true })
const serving = status.ok ? (parseJson(status.stdout).versions ?? []) : []
const previous = serving
  .filter((version) => version.version_id !== uploaded.id)
  .sort((a, b) => b.percentage - a.percentage)[0]

const share = previous ? percentage : 100
const specs =
  share === 100
    ? [`${uploaded.id}@100%`]
    : [`${uploaded.id}@${share}%`, `${previous.version_id}@${100 - share}%`]
console.log(
  `rollout: ${values.env}: ${values.tag} (${uploaded.id}) to ${share}% of traffic${share < 100 ? `, ${previous.version_id} keeps ${100 - share}%` : ''}`
)

// The deploy workflow's next step (the smoke, pinned to this version) reads its id from here.
if (process.env.GITHUB_OUTPUT)
  appendFileSync(process.env.GITHUB_OUTPUT, `version_id=${uploaded.id}\n`)

const deployed = wrangler([
  'versions',
  'deploy',
  ...specs,
  '--yes',
  '--message',
  values.message ?? `${values.tag} at ${share}%`,
])
if (!deployed.ok) fail('wrangler versions deploy failed')
