#!/usr/bin/env node
/**
 * `npm run content:check -- [--api <origin> [--product <name>] | --env staging|production]
 * [--json] [--check] [--accept <file>]`: what each page's visitors miss, per language, read from a
 * content backend exactly as the site reads it (src/report/, bundled for Node from
 * ./content-check/report.ts with esbuild).
 *
 * The backend: by default the bundled reference service under `wrangler dev`, with the local
 * content `npm start` keeps, as it is (seeded only when it holds no page:
 * ./content-check/local-content.mjs); `--api` any backend of spec section 7; `--env` the API_HOST, PRODUCT,
 * META_PATH and IMAGE_ORIGINS of that section of wrangler.toml (`--api` still overrides its origin),
 * with the token from API_TOKEN in the environment.
 *
 * Accepted gaps: the patterns of `--accept <file>`; by default content-check.accept at the
 * repository's root, or for the bundled service content-service/seed/content-check.accept (the
 * reference content's deliberate gaps): docs/operations.md, "Content health".
 *
 * Exit status: 0; 1 with --check when a counted gap is not accepted; 2 when no report could be
 * made (a bad option, no backend to read, a backend that delivered nothing), with the reason.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse as parseToml } from 'smol-toml'
import { loadSiteModule } from '../lib/load-site-module.mjs'
import { serverLogFile, startSite } from '../lib/local-site.mjs'
import { parseOperatorOptions, UsageError } from '../lib/operator-options.mjs'
import { prepareLocalContent } from './content-check/local-content.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const OPERATOR_ACCEPT = path.join(ROOT, 'content-check.accept')
const REFERENCE_ACCEPT = path.join(ROOT, 'content-service/seed/content-check.accept')
/** Spec section 7's time-out of a backend call (and each original's) when API_TIMEOUT_MS is not set. */
const TIMEOUT_MS = 10_000
const USAGE =
  'usage: npm run content:check -- [--api <origin> [--product <name>] | --env staging|production] [--json] [--check] [--accept <file>]'

function options() {
  const parsed = parseOperatorOptions(
    {
      api: { type: 'string' },
      product: { type: 'string' },
      env: { type: 'string' },
      json: { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
      accept: { type: 'string' },
    },
    USAGE
  )
  if (parsed.api !== undefined && !/^https?:\/\/[^/]+\/?$/.test(parsed.api))
    throw new UsageError(
      `--api must be an http(s) origin, such as https://cms.example.am, not ${JSON.stringify(parsed.api)}`
    )
  if (parsed.accept !== undefined && !existsSync(parsed.accept))
    throw new UsageError(`--accept ${parsed.accept}: no such file`)
  if (parsed.product !== undefined && !parsed.product.trim())
    throw new UsageError('--product must not be empty')
  return parsed
}

/** The vars of wrangler.toml's top level, or of `[env.<name>.vars]`. */
function varsOf(env) {
  const config = parseToml(readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8'))
  return (env ? config.env?.[env]?.vars : config.vars) ?? {}
}

/** The backend to read, and how to stop it when this script started it. */
async function backendOf({ api, product, env }) {
  const vars = varsOf(env)
  const common = {
    product: product ?? String(vars.PRODUCT ?? ''),
    token: process.env.API_TOKEN ?? '',
    metaPath: String(vars.META_PATH ?? ''),
    imageOrigins: String(vars.IMAGE_ORIGINS ?? ''),
    timeoutMs: Number(vars.API_TIMEOUT_MS) || TIMEOUT_MS,
    publicDir: path.join(ROOT, 'public'),
  }
  if (!common.product)
    throw new UsageError(
      `no PRODUCT in wrangler.toml${env ? ` [env.${env}.vars]` : ''}: pass --product`
    )
  const origin = (api ?? String(vars.API_HOST ?? '')).replace(/\/+$/, '')
  if (origin) {
    const backend = {
      ...common,
      origin,
      apiHost: origin,
      label: `${origin} (product ${common.product})`,
    }
    return { backend, stop: async () => {}, accept: OPERATOR_ACCEPT }
  }
  if (env)
    throw new UsageError(
      `wrangler.toml [env.${env}.vars] API_HOST is empty: the site reads its bundled content service through a binding, which this script cannot reach; pass --api <that service's origin>`
    )
  // The root's state, as `npm start` runs it: read as it is, seeded only when empty.
  const state = path.join(ROOT, '.wrangler/state')
  prepareLocalContent(ROOT, state)
  const site = await startSite({
    configs: ['content-service/wrangler.toml'],
    persistTo: state,
    readyPath: `/api/${encodeURIComponent(common.product)}/navbar-data`,
    logFile: serverLogFile('content-check'),
  })
  const backend = {
    ...common,
    origin: site.origin,
    apiHost: '',
    label: 'the bundled reference service',
  }
  return { backend, stop: site.stop, accept: REFERENCE_ACCEPT }
}

/** The report module, bundled for Node from the site's own sources (../lib/load-site-module.mjs). */
function loadReportModule() {
  return loadSiteModule({
    root: ROOT,
    entry: 'scripts/ops/content-check/report.ts',
    name: 'content-check',
  })
}

/** The accept file's patterns: `--accept`'s file, else the backend's default if present. */
function acceptPatterns(module, file, fallback) {
  const chosen = file ?? fallback
  return existsSync(chosen) ? module.parseAcceptedGaps(readFileSync(chosen, 'utf8')) : []
}

async function main() {
  const chosen = options()
  const module = await loadReportModule()
  const { backend, stop, accept } = await backendOf(chosen)
  const patterns = acceptPatterns(module, chosen.accept, accept)
  let report
  try {
    report = module.acceptGaps(await module.makeReport(backend), patterns)
  } catch (error) {
    if (error instanceof module.NoReport) throw new UsageError(`no report: ${error.message}`)
    throw error
  } finally {
    await stop()
  }
  process.stdout.write(
    `${chosen.json ? JSON.stringify(report, null, 2) : module.formatReportText(report)}\n`
  )
  return chosen.check && report.open > 0 ? 1 : 0
}

// The status is set, not exited with: a pipe (`| tee`) takes a large report in several writes,
// and Node writes the rest only while the process lives on.
main().then(
  (status) => {
    process.exitCode = status
  },
  (error) => {
    if (error instanceof UsageError) console.error(`content:check: ${error.message}\n${USAGE}`)
    else console.error('content:check: failed', error)
    process.exitCode = 2
  }
)
