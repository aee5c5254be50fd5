/**
 * Setup of the site project, before each test file. The test files share one Workers runtime
 * (`isolate: false` in vitest.config.ts: a runtime per file cost two seconds each), so each starts
 * as it would in a runtime of its own: every binding's storage emptied (`reset`), the site's
 * own modules evaluated afresh (no memo of another file's isolate; the libraries under
 * node_modules/, which keep none, are evaluated once: tests/support/worker/site-modules.ts), and the auxiliary content
 * service's database, reached through the runner's TEST_CONTENT_DB binding (same D1 id), migrated
 * and seeded. A test that needs a new isolate of its own starts one (tests/support/worker/worker.ts).
 */
import { reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { forgetSiteModules } from '../worker/site-modules'
import { migrateAndSeed } from './content-db'

await reset()
forgetSiteModules()
await migrateAndSeed(env.TEST_CONTENT_DB, env.TEST_CONTENT_MIGRATIONS, env.TEST_CONTENT_SEED)
