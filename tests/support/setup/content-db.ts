/**
 * Brings a content database to the state `npm run content:setup` leaves locally: migrated and
 * seeded. Both steps are idempotent, so it can run before every test file whatever the storage
 * isolation: migrations are recorded in d1_migrations, and the seed replaces all page rows.
 */
import { applyD1Migrations, type D1Migration } from 'cloudflare:test'

export async function migrateAndSeed(
  db: D1Database,
  migrations: D1Migration[],
  seed: string[]
): Promise<void> {
  await applyD1Migrations(db, migrations)
  await db.batch(seed.map((statement) => db.prepare(statement)))
}
