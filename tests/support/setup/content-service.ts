/** Setup of the content-service project: its own CONTENT_DB, migrated and seeded. */
import { env } from 'cloudflare:workers'
import { migrateAndSeed } from './content-db'

await migrateAndSeed(env.CONTENT_DB, env.TEST_CONTENT_MIGRATIONS, env.TEST_CONTENT_SEED)
