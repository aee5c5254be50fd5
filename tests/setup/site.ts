/**
 * Setup of the site project: the auxiliary content service's database, reached through the
 * runner's TEST_CONTENT_DB binding (same D1 id), migrated and seeded before each test file.
 */
import { env } from 'cloudflare:workers'
import { migrateAndSeed } from './content-db'

await migrateAndSeed(env.TEST_CONTENT_DB, env.TEST_CONTENT_MIGRATIONS, env.TEST_CONTENT_SEED)
