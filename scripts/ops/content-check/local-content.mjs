/**
 * The bundled service's local content as `npm start` keeps it, made ready for a report without
 * losing an edit: the migrations it lacks applied (`npm run content:migrate`'s command), and the
 * seed loaded (`npm run content:seed`'s script) only when it holds no page at all. A plain
 * `npm run content:check` thus reports what is there now, and starts no wrangler run to prepare
 * content that is already in place.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'

/** The content database's file under a `--persist-to` state folder, or null when there is none yet. */
function databaseFile(state) {
  const folder = path.join(state, 'v3/d1/miniflare-D1DatabaseObject')
  if (!existsSync(folder)) return null
  const file = readdirSync(folder).find(
    (name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite'
  )
  return file ? path.join(folder, file) : null
}

/** What the local database holds: the migrations applied and the pages (none when there is no database). */
function readState(state) {
  const file = databaseFile(state)
  if (!file) return { migrations: new Set(), pages: 0 }
  const database = new DatabaseSync(file, { readOnly: true, timeout: 10_000 })
  const all = (sql) => {
    try {
      return database.prepare(sql).all()
    } catch {
      return [] // the table does not exist yet
    }
  }
  try {
    return {
      migrations: new Set(all('SELECT name FROM d1_migrations').map((row) => String(row.name))),
      pages: Number(all('SELECT COUNT(*) AS n FROM pages')[0]?.n ?? 0),
    }
  } finally {
    database.close()
  }
}

/** Makes the local content under `state` ready: missing migrations applied, seeded only when empty. */
export function prepareLocalContent(root, state) {
  // Wrangler needs Node 22: the `node` devDependency in node_modules/.bin, as the seed script runs it.
  const bin = path.join(root, 'node_modules/.bin')
  const run = (command, args) =>
    execFileSync(command, args, {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      },
    })
  const migrations = readdirSync(path.join(root, 'content-service/migrations')).filter((name) =>
    name.endsWith('.sql')
  )
  const before = readState(state)
  if (migrations.some((name) => !before.migrations.has(name)))
    run(path.join(bin, 'wrangler'), [
      'd1',
      'migrations',
      'apply',
      'CONTENT_DB',
      '--local',
      '-c',
      'content-service/wrangler.toml',
      '--persist-to',
      state,
    ])
  if (readState(state).pages === 0)
    run(process.execPath, ['content-service/scripts/seed.mjs', '--local', '--persist-to', state])
}
