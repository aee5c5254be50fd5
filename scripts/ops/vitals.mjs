#!/usr/bin/env node
/**
 * `npm run vitals -- [--env production] [--days 7] [--country AM] [--json] [--check]`: what real
 * visitors got, read from the VITALS Analytics Engine dataset of an environment (its name in
 * wrangler.toml) through Cloudflare's Analytics Engine SQL API (scripts/lib/vitals/).
 *
 * Environment, under the names wrangler uses: CLOUDFLARE_ACCOUNT_ID, CLOUDFLARE_API_TOKEN (a
 * token with Account Analytics Read) and, optionally, CLOUDFLARE_API_BASE_URL (default
 * https://api.cloudflare.com/client/v4; a test or a proxy stands in there).
 *
 * Exit status: 0; 1 with --check when a site-level p75 with enough data is not good; 2 when the
 * report could not be made (bad option, missing credentials, an API error), with the reason.
 * The runbook: docs/operations.md, "Field vitals".
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse as parseToml } from 'smol-toml'
import { checkFailures, formatReport, formatValue, gatherReport } from '../lib/vitals/report.mjs'
import { countryCode, dayCount, QueryRefused } from '../lib/vitals/sql.mjs'
import { DEFAULT_API_BASE_URL, runQuery, SqlApiError } from '../lib/vitals/sql-api.mjs'
import { parseOperatorOptions, UsageError } from '../lib/operator-options.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const USAGE =
  'usage: npm run vitals -- [--env production|staging] [--days 1-90] [--country AM] [--json] [--check]'

function options() {
  const parsed = parseOperatorOptions(
    {
      env: { type: 'string', default: 'production' },
      days: { type: 'string', default: '7' },
      country: { type: 'string' },
      json: { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
    },
    USAGE
  )
  return {
    env: parsed.env,
    days: dayCount(parsed.days),
    country: parsed.country === undefined ? undefined : countryCode(parsed.country),
    json: parsed.json,
    check: parsed.check,
  }
}

/**
 * The VITALS dataset's name in the environment's wrangler.toml section. Bindings are not inherited
 * by environments (scripts/ops/check-deploy.mjs proves each environment declares its own), so the
 * section's own `analytics_engine_datasets` is the whole answer: read as TOML, in milliseconds,
 * where loading wrangler to resolve the config takes seconds.
 */
function datasetOf(env) {
  const config = parseToml(readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8'))
  const datasets = config.env?.[env]?.analytics_engine_datasets
  const binding = Array.isArray(datasets)
    ? datasets.find((entry) => entry?.binding === 'VITALS')
    : undefined
  if (typeof binding?.dataset !== 'string' || !binding.dataset)
    throw new UsageError(`wrangler.toml [env.${env}] binds no VITALS dataset`)
  return binding.dataset
}

function credentials() {
  const accountId = process.env.CLOUDFLARE_ACCOUNT_ID?.trim()
  const token = process.env.CLOUDFLARE_API_TOKEN?.trim()
  const missing = [!accountId && 'CLOUDFLARE_ACCOUNT_ID', !token && 'CLOUDFLARE_API_TOKEN'].filter(
    Boolean
  )
  if (missing.length)
    throw new UsageError(
      `set ${missing.join(' and ')} (an API token with Account Analytics Read; the names wrangler uses)`
    )
  return {
    accountId,
    token,
    baseUrl: process.env.CLOUDFLARE_API_BASE_URL?.trim() || DEFAULT_API_BASE_URL,
  }
}

async function main() {
  const { env, days, country, json, check } = options()
  const dataset = datasetOf(env)
  const api = credentials()
  const report = await gatherReport((sql) => runQuery(sql, api), { dataset, days, country })
  const failures = checkFailures(report)
  if (json) console.log(JSON.stringify({ env, ...report, check: { failures } }, null, 2))
  else console.log(formatReport(report, { env }))
  if (!check) return 0
  if (!json) {
    console.log('')
    console.log(
      failures.length
        ? `check: FAIL, ${failures.map((f) => `${f.metric} p75 on ${f.device} is ${formatValue(f.metric, f.p75)} (${f.verdict})`).join('; ')}`
        : `check: ok, every site-level p75 with n >= ${report.minN} is good`
    )
  }
  return failures.length ? 1 : 0
}

main().then(
  (status) => process.exit(status),
  (error) => {
    if (error instanceof UsageError || error instanceof QueryRefused) {
      console.error(`vitals: ${error.message}\n${USAGE}`)
    } else if (error instanceof SqlApiError) {
      console.error(`vitals: ${error.message}`)
    } else {
      console.error('vitals: failed', error)
    }
    process.exit(2)
  }
)
