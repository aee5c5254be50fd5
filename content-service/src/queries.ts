/**
 * All D1 access of the content service, in one module so the tables are named in one place.
 *
 * Payloads are stored as the JSON documents the site reads (field names of
 * shared/spec/payload-fields.md) and returned untouched: the editable source of truth is
 * content-service/seed/*.json, and the seed script writes them here verbatim.
 */

/** Rows of `pages`: one per GET call of spec section 7 (page-meta-data aside). */
export const PAGE_SLUGS = ['home', 'about', 'enterprises', 'contact-us', 'navbar'] as const
export type PageSlug = (typeof PAGE_SLUGS)[number]

/** A validated contact message, as stored in `messages`. */
export type NewMessage = { name: string; email: string; comments: string }

/** The payload stored for a page, or null when the database has not been seeded with it. */
export async function getPage(db: D1Database, slug: PageSlug): Promise<unknown> {
  const row = await db
    .prepare('SELECT payload FROM pages WHERE slug = ?')
    .bind(slug)
    .first<{ payload: string }>()
  return row ? JSON.parse(row.payload) : null
}

/** The draft of a page call ('get-about-page', ...), or null when it has none. */
export async function getDraft(db: D1Database, endpoint: string): Promise<unknown> {
  const row = await db
    .prepare('SELECT payload FROM drafts WHERE endpoint = ?')
    .bind(endpoint)
    .first<{ payload: string }>()
  return row ? JSON.parse(row.payload) : null
}

/** Stores `payload` as the draft of a page call, replacing any earlier one. */
export async function putDraft(db: D1Database, endpoint: string, payload: unknown): Promise<void> {
  await db
    .prepare(
      `INSERT INTO drafts (endpoint, payload) VALUES (?, ?)
       ON CONFLICT (endpoint) DO UPDATE SET payload = excluded.payload, updated_at = excluded.updated_at`
    )
    .bind(endpoint, JSON.stringify(payload))
    .run()
}

/**
 * Makes the draft of a page call its published payload (row `slug` of `pages`) and drops the draft,
 * in one transaction; false when there is no draft.
 */
export async function publishDraft(
  db: D1Database,
  endpoint: string,
  slug: PageSlug
): Promise<boolean> {
  const [published] = await db.batch([
    db
      .prepare(
        `INSERT INTO pages (slug, payload) SELECT ?, payload FROM drafts WHERE endpoint = ?
         ON CONFLICT (slug) DO UPDATE SET payload = excluded.payload,
           updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`
      )
      .bind(slug, endpoint),
    db.prepare('DELETE FROM drafts WHERE endpoint = ?').bind(endpoint),
  ])
  return (published?.meta.changes ?? 0) > 0
}

/** The meta payload of a page key such as '/about', or null for an unknown page. */
export async function getPageMeta(db: D1Database, page: string): Promise<unknown> {
  const row = await db
    .prepare('SELECT payload FROM page_meta WHERE page = ?')
    .bind(page)
    .first<{ payload: string }>()
  return row ? JSON.parse(row.payload) : null
}

/**
 * What storing a message did: `stored` a new row; `replayed` found the row its idempotency key
 * already stored, with the same fields; `conflict` found that key stored with other fields.
 */
export type InsertOutcome = { kind: 'stored' | 'replayed'; id: number } | { kind: 'conflict' }

/** Stores a message, once per idempotency key (none: always a new row). */
export async function insertMessage(
  db: D1Database,
  message: NewMessage,
  idempotencyKey?: string
): Promise<InsertOutcome> {
  const row = await db
    .prepare(
      `INSERT INTO messages (name, email, comments, idempotency_key) VALUES (?, ?, ?, ?)
       ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id`
    )
    .bind(message.name, message.email, message.comments, idempotencyKey ?? null)
    .first<{ id: number }>()
  if (row) return { kind: 'stored', id: row.id }
  if (idempotencyKey === undefined) throw new Error('INSERT INTO messages returned no row')
  const stored = await db
    .prepare('SELECT id, name, email, comments FROM messages WHERE idempotency_key = ?')
    .bind(idempotencyKey)
    .first<{ id: number } & NewMessage>()
  if (!stored) throw new Error('INSERT INTO messages conflicted on a key it cannot find')
  const same =
    stored.name === message.name &&
    stored.email === message.email &&
    stored.comments === message.comments
  return same ? { kind: 'replayed', id: stored.id } : { kind: 'conflict' }
}
