/**
 * The bundled service's local content as `npm start` keeps it, made ready for a report without
 * losing an edit: its migrations applied (they only add what is new), and the seed loaded only
 * when it holds no page at all. A plain `npm run content:check` thus reports what is there now.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'

/** How many pages the local D1 database under `state` holds (0 when there is none yet). */
function countPages(state) {
  const folder = path.join(state, 'v3/d1/miniflare-D1DatabaseObject')
  if (!existsSync(folder)) return 0
  const files = readdirSync(folder).filter(
    (file) => file.endsWith('.sqlite') && file !== 'metadata.sqlite'
  )
  let pages = 0
  for (const file of files) {
    const database = new DatabaseSync(path.join(folder, file), { readOnly: true, timeout: 10_000 })
    try {
      const row = database.prepare('SELECT COUNT(*) AS n FROM pages').get()
      pages += Number(row?.n ?? 0)
    } catch {
      // Not the content database (no pages table).
    } finally {
      database.close()
    }
  }
  return pages
}

/** Applies the migrations to the local content under `state`, and seeds it only when it is empty. */
export function prepareLocalContent(root, state) {
  const npm = (script) =>
    execFileSync('npm', ['run', '--silent', script], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    })
  npm('content:migrate')
  if (countPages(state) === 0) npm('content:seed')
}
