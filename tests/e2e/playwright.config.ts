/**
 * Browser tests: Playwright driving a Chromium that needs no download (scripts/lib/chromium-path.mjs)
 * against the real local Workers runtime (`npm run e2e:server`: both workers under `wrangler dev`).
 *
 * - E2E_BASE_URL=http://host:port runs against a server that is already up and starts none.
 * - Otherwise one server is started for the whole run on E2E_PORT, or on a free port the system
 *   hands out (never a fixed one: two runs on one machine, in two working trees, each get their
 *   own), and stopped at the end.
 *
 * Run: `npm run test:e2e` (typecheck + all specs), or one spec with
 * `npx playwright test -c tests/e2e/playwright.config.ts routes.spec.ts`. A failure leaves a
 * screenshot in tests/e2e/test-results/port-<port>/, and a trace when CI retries it.
 *
 * Engines (E2E_ENGINES, comma-separated; docs/decisions/0009-browser-engines.md):
 * - unset or `chromium`: every spec in Chromium (`npm test`) but the engine-neutral ones a Chromium
 *   spec repeats (REPEATED_IN_CHROMIUM);
 * - `firefox`, `webkit`: the engine-neutral specs (visitor-*.spec.ts) in Playwright's own builds (CI);
 * - `firefox-esr`, `webkitgtk`: the engine-neutral specs in Debian's browsers, driven through
 *   Puppeteer (WebDriver BiDi) and WebKitWebDriver (`npm run test:engines`, scripts/test-engines.mjs).
 *
 * This file is evaluated again in every worker process; the values the main process picks (port,
 * Chromium path) are handed down through the environment so every process agrees on them.
 */
import { createServer } from 'node:net'
import { defineConfig } from '@playwright/test'
import {
  CHROMIUM_ARGS,
  chromiumPath,
  chromiumVersion,
  headlessShellPath,
} from '../../scripts/lib/chromium-path.mjs'

/** A TCP port on 127.0.0.1 that nothing listens on right now, picked by the system. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port'))
      )
    })
  })
}

const externalServer = process.env.E2E_BASE_URL?.replace(/\/+$/, '')
if (!externalServer) process.env.E2E_PORT ??= String(await freePort())
const ENGINES = (process.env.E2E_ENGINES || 'chromium').split(',').map((engine) => engine.trim())
const UNKNOWN = ENGINES.filter(
  (engine) => !['chromium', 'firefox', 'webkit', 'firefox-esr', 'webkitgtk'].includes(engine)
)
if (UNKNOWN.length > 0) throw new Error(`E2E_ENGINES: unknown engine(s) ${UNKNOWN.join(', ')}`)
/** The specs every engine runs: they reach the browser only through tests/support/e2e/engines/visitor.ts. */
const ENGINE_NEUTRAL = '**/visitor-*.spec.ts'
/**
 * Engine-neutral specs whose every check a Chromium spec makes too, and more: Chromium leaves them
 * to the other engines (docs/decisions/0053). islands.spec.ts and islands-carousel.spec.ts: the
 * dropdown in each language, the phone menu, back-to-top, the carousel's arrows; contact.spec.ts:
 * the empty submit in each language, the valid send; language-offer.spec.ts: a stored choice
 * offered, its link keeping query and fragment, closed staying closed.
 */
const REPEATED_IN_CHROMIUM = [
  '**/visitor-islands.spec.ts',
  '**/visitor-contact.spec.ts',
  '**/visitor-language-offer.spec.ts',
]

/**
 * Two builds of one Chromium (docs/decisions/0036): the specs drive its headless shell
 * (E2E_CHROMIUM_SHELL), which spends less CPU per page; back-forward-cache.spec.ts and
 * prerender.spec.ts launch the whole browser (E2E_CHROMIUM), which has what they check.
 */
if (ENGINES.includes('chromium') && !(process.env.E2E_CHROMIUM && process.env.E2E_CHROMIUM_SHELL)) {
  process.env.E2E_CHROMIUM = await chromiumPath()
  process.env.E2E_CHROMIUM_SHELL = await headlessShellPath()
  const shell = process.env.E2E_CHROMIUM_SHELL
  console.log(
    `browser tests: ${chromiumVersion(shell)} (${shell})${shell === process.env.E2E_CHROMIUM ? '' : `; the back/forward cache and prerender specs: ${chromiumVersion(process.env.E2E_CHROMIUM)} (${process.env.E2E_CHROMIUM})`}`
  )
}

/**
 * How long the test servers' image route waits for a transform before it answers 503 to retry
 * (IMAGE_TRANSFORM_TIMEOUT_MS, 20 s in production): a deadline for a busy machine, where a page's
 * first visit queues its transforms for the route's slots behind the other worker's. The specs
 * need the images; how fast the route answers is the bench's business, and its refusals are
 * tests/worker/image-abuse.test.ts's. Handed to the specs as E2E_IMAGE_WAIT_MS (tests/support/e2e/fixtures.ts).
 */
process.env.E2E_IMAGE_WAIT_MS ??= '60000'

const baseURL = externalServer ?? `http://127.0.0.1:${process.env.E2E_PORT}`
/**
 * Under `npm test` (scripts/run-tests.mjs) the server's log goes to a file in its log folder, not
 * through Playwright, which would print every request it serves as a `[WebServer]` line.
 */
const serverLog = process.env.TEST_LOG_DIR
  ? `${process.env.TEST_LOG_DIR}/browser-tests-wrangler.log`
  : null
const isCI = Boolean(process.env.CI)

export default defineConfig<object, { driver: 'playwright' | 'firefox-esr' | 'webkitgtk' }>({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // One folder per server port: runs side by side in one working tree never wipe each other's artifacts.
  outputDir: `./test-results/${externalServer ? 'external' : `port-${process.env.E2E_PORT}`}`,
  fullyParallel: true,
  // Two cores: wrangler's workerd takes one, the browsers share the rest. E2E_WORKERS changes it;
  // under `npm test`, with the other lane running, a third worker made the stage no faster (465 s
  // against 457 s) and the other lane slower.
  workers: Number(process.env.E2E_WORKERS) || 2,
  forbidOnly: isCI,
  retries: isCI ? 1 : 0,
  // A deadline for a hung test, beyond the sum of a test's own deadlines: the image route's wait
  // for a transform (E2E_IMAGE_WAIT_MS, 60 s), which a navigation to its load event may pay on a
  // busy machine's first visits; the carousel's two 20-s polls and 6-s pause.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [[isCI ? 'line' : 'list'], ['./summary-reporter.ts']],
  projects: ENGINES.map((engine) => {
    if (engine === 'chromium')
      return {
        name: engine,
        testIgnore: REPEATED_IN_CHROMIUM,
        use: {
          browserName: 'chromium',
          launchOptions: { executablePath: process.env.E2E_CHROMIUM_SHELL, args: CHROMIUM_ARGS },
        },
      }
    if (engine === 'firefox' || engine === 'webkit')
      return {
        name: engine,
        testMatch: ENGINE_NEUTRAL,
        use: { browserName: engine, launchOptions: {} },
      }
    return {
      name: engine,
      testMatch: ENGINE_NEUTRAL,
      use: { driver: engine as 'firefox-esr' | 'webkitgtk' },
    }
  }),
  use: {
    baseURL,
    headless: true,
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
    // Recorded only when CI retries a failed test: recording every test (retain-on-failure) cost
    // the browsers 12 % of the suite's time. Locally, `npx playwright test ... --trace on`.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  webServer: externalServer
    ? undefined
    : {
        // No renditions warm-up after a publish (IMAGE_WARM_BUDGET_MS 1 ms): the freshness spec's
        // publish would otherwise spend 25 s of CPU on AVIF renditions no spec asks for, beside the
        // other specs. The warm-up has a site of its own: images-after-publish.spec.ts.
        command: `npm run e2e:server -- --var IMAGE_TRANSFORM_TIMEOUT_MS:${process.env.E2E_IMAGE_WAIT_MS} --var IMAGE_WARM_BUDGET_MS:1${serverLog ? ` > '${serverLog}' 2>&1` : ''}`,
        cwd: '../..',
        // Ready once the home page renders: the site worker and the content service both answer.
        url: `${baseURL}/`,
        env: { E2E_PORT: process.env.E2E_PORT!, WRANGLER_SEND_METRICS: 'false' },
        // Migrating and seeding D1, building the client bundle and starting workerd, on 2 cores.
        timeout: 120_000,
        reuseExistingServer: false,
        stdout: serverLog ? 'ignore' : 'pipe',
        stderr: serverLog ? 'ignore' : 'pipe',
        gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      },
})
