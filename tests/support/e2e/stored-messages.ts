/**
 * The contact messages a local reference content service stored, read from its D1 database: the
 * one SQLite file `wrangler dev` keeps under its state folder (`--persist-to`), opened read-only
 * beside the running service. Not `wrangler d1 execute`, which starts a Workers runtime for every
 * read: a few CPU-seconds each, and the contact specs read once a second while they wait.
 */
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'

/** How long a read waits for the service's write lock: a deadline, far beyond a write's time. */
const BUSY_TIMEOUT_MS = 10_000

export type StoredMessage = {
  name: string
  email: string
  comments: string
  idempotency_key: string
}

/** The messages stored with these comments in the service whose state folder is `state`. */
export function storedMessages(state: string, comments: string): StoredMessage[] {
  const folder = path.join(state, 'v3/d1/miniflare-D1DatabaseObject')
  const files = readdirSync(folder).filter(
    (file) => file.endsWith('.sqlite') && file !== 'metadata.sqlite'
  )
  if (files.length !== 1)
    throw new Error(`expected one D1 database in ${folder}, found ${files.join(', ') || 'none'}`)
  // The running service may be writing: SQLite waits up to BUSY_TIMEOUT_MS for its lock (SQLITE_BUSY,
  // "database is locked", was seen beside a busy machine's write).
  const database = new DatabaseSync(path.join(folder, files[0]!), {
    readOnly: true,
    timeout: BUSY_TIMEOUT_MS,
  })
  try {
    const rows = database
      .prepare('SELECT name, email, comments, idempotency_key FROM messages WHERE comments = ?')
      .all(comments) as StoredMessage[]
    // Plain objects: node:sqlite's rows have no prototype.
    return rows.map((row) => ({ ...row }))
  } finally {
    database.close()
  }
}
