#!/usr/bin/env node
/**
 * `npm run check:deploy` (part of `npm test`): proves that every environment of both workers
 * would deploy, without deploying, so a broken config never reaches main. Paths to other
 * configurations may be given instead (tests/tooling/check-deploy.test.ts).
 *
 * For the site (wrangler.toml) and the reference content service (content-service/wrangler.toml),
 * at the top level (local development) and in every [env.*]:
 * - `wrangler deploy --dry-run` builds and bundles it and validates its config, and must print
 *   no warning;
 * - it has exactly the bindings and vars of the top level, which the tests run against:
 *   environments inherit none of them, and wrangler warns about only some that are missing;
 * - it consumes the same queues with the same settings (retries, delays, batching, dead-letter
 *   queue) as the top level, a queue named by the producer binding that sends to it (or as the
 *   dead-letter queue of one), since queue names differ per environment; and every dead-letter
 *   queue has a consumer, so that no dead letter sits unseen;
 * - no KV namespace or D1 database names a placeholder id (all zeros, or one digit repeated):
 *   a resource has either no id (wrangler provisions it on the environment's first deploy and
 *   finds it by binding afterwards, docs/decisions/0005-operations.md) or its real one;
 * - every secret an environment requires is explained in .dev.vars.example.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { experimental_readRawConfig, unstable_readConfig } from 'wrangler'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const WRANGLER = path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js')
/** The configurations to check: both workers', or those named on the command line (tests). */
const CONFIGS =
  process.argv.length > 2
    ? process.argv.slice(2)
    : ['wrangler.toml', 'content-service/wrangler.toml']
const TOP_LEVEL = ''

/** True for ids nobody's account has: 00000000…, 11111111-1111-…, and the like. */
function isPlaceholderId(id) {
  const digits = String(id).replaceAll('-', '').toLowerCase()
  return digits.length > 0 && /^(.)\1*$/.test(digits.slice(0, 8))
}

function environmentsOf(config) {
  const { rawConfig } = experimental_readRawConfig(
    { config: path.join(ROOT, config) },
    { hideWarnings: true }
  )
  return [TOP_LEVEL, ...Object.keys(rawConfig.env ?? {})]
}

function readConfig(config, env) {
  return unstable_readConfig(
    { config: path.join(ROOT, config), env: env || undefined },
    { hideWarnings: true }
  )
}

/** The names a worker sees in `env`: every binding and var. */
function bindingNames(resolved) {
  const byBinding = (list) => (list ?? []).map((entry) => entry.binding)
  return new Set(
    [
      ...Object.keys(resolved.vars ?? {}),
      ...byBinding(resolved.kv_namespaces),
      ...byBinding(resolved.d1_databases),
      ...byBinding(resolved.services),
      ...byBinding(resolved.analytics_engine_datasets),
      ...byBinding(resolved.queues?.producers),
      ...(resolved.ratelimits ?? []).map((limit) => limit.name),
      ...[resolved.images, resolved.version_metadata, resolved.assets].map(
        (single) => single?.binding
      ),
    ].filter(Boolean)
  )
}

const CONSUMER_SETTINGS = [
  'max_batch_size',
  'max_batch_timeout',
  'max_retries',
  'retry_delay',
  'max_concurrency',
]

/**
 * The queue consumers of a resolved configuration, each by a name that is the same in every
 * environment: the producer binding of its queue (`CONTACT_QUEUE`), `dead letters of <that>`, or
 * the queue's own name; with its settings, and problems found on the way.
 */
function consumersOf(resolved) {
  const producers = new Map(
    (resolved.queues?.producers ?? []).map((producer) => [producer.queue, producer.binding])
  )
  const consumers = resolved.queues?.consumers ?? []
  const nameOf = (queue, depth = 0) => {
    if (producers.has(queue)) return producers.get(queue)
    const source = depth < 5 && consumers.find((consumer) => consumer.dead_letter_queue === queue)
    return source ? `dead letters of ${nameOf(source.queue, depth + 1)}` : `queue ${queue}`
  }
  const problems = []
  const shapes = new Map()
  for (const consumer of consumers) {
    const settings = Object.fromEntries(
      CONSUMER_SETTINGS.filter((key) => consumer[key] !== undefined).map((key) => [
        key,
        consumer[key],
      ])
    )
    if (consumer.dead_letter_queue) {
      settings.dead_letter_queue = nameOf(consumer.dead_letter_queue)
      if (!consumers.some((other) => other.queue === consumer.dead_letter_queue)) {
        problems.push(
          `no consumer of ${consumer.dead_letter_queue}, the dead-letter queue of ${nameOf(consumer.queue)}: its messages would sit unseen`
        )
      }
    }
    shapes.set(nameOf(consumer.queue), JSON.stringify(settings))
  }
  return { shapes, problems }
}

/** Problems with the bindings, resource ids and secrets of one environment, as sentences. */
function checkResources(config, env) {
  const resolved = readConfig(config, env)
  const where = `${config}${env ? ` [env.${env}]` : ' (top level)'}`
  const problems = []
  if (env) {
    const expected = bindingNames(readConfig(config, TOP_LEVEL))
    const actual = bindingNames(resolved)
    const missing = [...expected].filter((name) => !actual.has(name))
    const extra = [...actual].filter((name) => !expected.has(name))
    if (missing.length)
      problems.push(
        `${where}: missing ${missing.join(', ')}, which the top level has (environments inherit no binding or var)`
      )
    if (extra.length)
      problems.push(
        `${where}: ${extra.join(', ')} not at the top level, so neither local development nor the tests have it`
      )
    const top = consumersOf(readConfig(config, TOP_LEVEL)).shapes
    const here = consumersOf(resolved).shapes
    for (const [name, settings] of top) {
      if (!here.has(name))
        problems.push(`${where}: no consumer of ${name}, which the top level consumes`)
      else if (here.get(name) !== settings)
        problems.push(
          `${where}: the consumer of ${name} has ${here.get(name)}, the top level ${settings}`
        )
    }
    for (const name of here.keys())
      if (!top.has(name)) problems.push(`${where}: consumes ${name}, which the top level does not`)
  }
  for (const problem of consumersOf(resolved).problems) problems.push(`${where}: ${problem}`)
  const ids = [
    ...resolved.kv_namespaces.map((kv) => ({ binding: kv.binding, id: kv.id })),
    ...resolved.d1_databases.map((db) => ({ binding: db.binding, id: db.database_id })),
  ]
  for (const { binding, id } of ids) {
    if (id !== undefined && isPlaceholderId(id))
      problems.push(
        `${where}: ${binding} names the placeholder id ${id}; remove it (wrangler then provisions the resource) or put the real one`
      )
  }
  const example = readFileSync(path.join(ROOT, '.dev.vars.example'), 'utf8')
  for (const secret of resolved.secrets?.required ?? []) {
    if (!new RegExp(`^#?\\s*${secret}=`, 'm').test(example))
      problems.push(`${where}: the required secret ${secret} is not explained in .dev.vars.example`)
  }
  return problems
}

/** Runs one dry run; resolves with its problems (failure, or warnings it printed). */
function dryRun(config, env) {
  const name = `${config.replace(/\.toml$/, '').replaceAll('/', '_')}-${env || 'top-level'}`
  const args = [
    WRANGLER,
    'deploy',
    '--dry-run',
    '--config',
    config,
    `--env=${env}`,
    '--outdir',
    `.wrangler/dry-run/${name}`,
  ]
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('close', (code) => {
      const where = `${config}${env ? ` --env ${env}` : ' (top level)'}`
      if (code !== 0)
        return resolve([`${where}: wrangler deploy --dry-run failed (exit ${code}):\n${output}`])
      if (output.includes('[WARNING]')) return resolve([`${where}: wrangler warned:\n${output}`])
      console.log(`ok   ${where}`)
      resolve([])
    })
  })
}

/**
 * The dry runs, one worker's environments after another, both workers side by side: the site's
 * dry runs run its custom build, which rewrites public/assets, so two of them must not overlap.
 */
async function dryRunAll(targets) {
  const lanes = CONFIGS.map(async (config) => {
    const problems = []
    for (const { env } of targets.filter((target) => target.config === config))
      problems.push(...(await dryRun(config, env)))
    return problems
  })
  return (await Promise.all(lanes)).flat()
}

const targets = CONFIGS.flatMap((config) => environmentsOf(config).map((env) => ({ config, env })))
const configProblems = targets.flatMap(({ config, env }) => checkResources(config, env))
if (configProblems.length) fail(configProblems, '(the dry runs wait until these are fixed)')
const dryRunProblems = await dryRunAll(targets)
if (dryRunProblems.length) fail(dryRunProblems)

function fail(problems, note = '') {
  console.error(`\n${problems.join('\n\n')}${note ? `\n\n${note}` : ''}`)
  process.exit(1)
}
console.log(
  `check:deploy: ${targets.length} configurations (${CONFIGS.join(', ')}; top level, ${[...new Set(targets.map((t) => t.env).filter(Boolean))].join(', ')}) deploy cleanly`
)
