#!/usr/bin/env node
/**
 * Loads content-service/seed/*.json into the content service's D1 database, replacing all page
 * content (messages are kept). Run the migrations first; `npm run content:setup` does both.
 *
 *   node content-service/scripts/seed.mjs                 local D1 in .wrangler/state (what `npm start` reads)
 *   node content-service/scripts/seed.mjs --persist-to D  local D1 in another state folder
 *   node content-service/scripts/seed.mjs --remote --env staging   a deployed environment's database
 *
 * It writes .wrangler/tmp/content-seed.sql and runs `wrangler d1 execute CONTENT_DB --file` on it.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { buildSeedSql, findMissingImages, readSeed } from './seed-sql.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
/** The state folder the root `wrangler dev -c wrangler.toml -c content-service/wrangler.toml` uses. */
const DEFAULT_PERSIST = path.join(ROOT, '.wrangler/state')

const { values } = parseArgs({
  options: {
    local: { type: 'boolean', default: false },
    remote: { type: 'boolean', default: false },
    'persist-to': { type: 'string' },
    env: { type: 'string' },
  },
})
if (values.local && values.remote) throw new Error('Pass --local or --remote, not both')
if (values.remote && !values.env)
  throw new Error('Pass --env staging or --env production with --remote')

const seed = readSeed()
const missing = findMissingImages(seed)
if (missing.length)
  console.warn(`warning: images named in the seed are missing from public/: ${missing.join(', ')}`)

const sqlFile = path.join(ROOT, '.wrangler/tmp/content-seed.sql')
mkdirSync(path.dirname(sqlFile), { recursive: true })
writeFileSync(sqlFile, buildSeedSql(seed))

const target = values.remote
  ? ['--remote', '--yes', `--env=${values.env}`]
  : ['--local', '--persist-to', path.resolve(values['persist-to'] ?? DEFAULT_PERSIST)]
const args = [
  'd1',
  'execute',
  'CONTENT_DB',
  '--config',
  path.join(ROOT, 'content-service/wrangler.toml'),
  '--file',
  sqlFile,
  ...target,
]

// Wrangler needs Node 22: prefer the `node` devDependency in node_modules/.bin over the machine's.
const bin = path.join(ROOT, 'node_modules/.bin')
const result = spawnSync(path.join(bin, 'wrangler'), args, {
  cwd: ROOT,
  stdio: ['inherit', 'pipe', 'inherit'],
  encoding: 'utf8',
  env: {
    ...process.env,
    WRANGLER_SEND_METRICS: 'false',
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
  },
})
if (result.status !== 0) {
  process.stdout.write(result.stdout ?? '')
  console.error(
    `seeding failed${values.remote ? '' : ' (did `npm run content:migrate` run first?)'}`
  )
  process.exit(result.status ?? 1)
}
console.log(
  `seeded ${Object.keys(seed.pages).length} pages and ${Object.keys(seed.pageMeta).length} page meta entries${values.remote ? ` (remote, ${values.env})` : ` into ${path.relative(ROOT, target[2]) || target[2]}`}`
)
