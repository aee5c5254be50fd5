/**
 * `npm run test:engines`: the engine-neutral browser specs (tests/e2e/visitor-*.spec.ts) in the
 * two engines besides Chromium, as Debian ships them: Firefox ESR (driven by Puppeteer over
 * WebDriver BiDi) and WebKitGTK, Safari's engine (driven by Selenium through WebKitWebDriver, in an
 * Xvfb display when there is none). Nothing is downloaded: Debian's packages are installed when
 * missing and this machine can (root, apt-get), saying so in one line; otherwise the run fails at
 * once, naming the apt-get line that installs them: never a silent pass.
 *
 * Extra arguments go to Playwright: `npm run test:engines -- visitor-words`.
 * E2E_ENGINES=firefox-esr (or webkitgtk) runs one of them only.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { browserExecutable, provideBrowsers, SYSTEM_BROWSERS } from './lib/system-browsers.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const ENGINES = [
  { name: 'firefox-esr', what: 'Firefox ESR', browsers: [SYSTEM_BROWSERS.firefoxEsr] },
  {
    name: 'webkitgtk',
    what: 'WebKitGTK (WebKitWebDriver)',
    browsers: [
      SYSTEM_BROWSERS.webkitDriver,
      ...(process.env.DISPLAY ? [] : [SYSTEM_BROWSERS.xvfb]),
    ],
  },
]

const wanted = process.env.E2E_ENGINES
  ? process.env.E2E_ENGINES.split(',').map((name) => name.trim())
  : ENGINES.map((engine) => engine.name)
const unknown = wanted.filter((name) => !ENGINES.some((engine) => engine.name === name))
if (unknown.length > 0) {
  console.error(
    `test:engines: unknown engine(s) ${unknown.join(', ')}; E2E_ENGINES takes ${ENGINES.map((engine) => engine.name).join(', ')}`
  )
  process.exit(1)
}
const chosen = ENGINES.filter((engine) => wanted.includes(engine.name))
// Installed when this machine can (root, apt-get), else the run stops before any test, naming the
// command that installs them (scripts/lib/system-browsers.mjs).
const provided = provideBrowsers({
  who: 'test:engines',
  needs: chosen.flatMap((engine) => engine.browsers),
})
if (!provided.ok) {
  console.error(`${provided.message}\ntest:engines: FAILED: nothing run.`)
  process.exit(1)
}

/** Starts Xvfb on a free display number; resolves with ':<n>' and a stop function. */
function startXvfb() {
  return new Promise((resolve, reject) => {
    const xvfb = spawn(
      browserExecutable(SYSTEM_BROWSERS.xvfb),
      ['-displayfd', '1', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'],
      { stdio: ['ignore', 'pipe', 'ignore'] }
    )
    xvfb.once('error', reject)
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it was ready`)))
    xvfb.stdout.once('data', (data) =>
      resolve({ display: `:${String(data).trim()}`, stop: () => xvfb.kill('SIGTERM') })
    )
  })
}

const env = {
  ...process.env,
  E2E_ENGINES: chosen.map((engine) => engine.name).join(','),
  // Screenshots of every page in each engine, to look at (docs/decisions/0052).
  E2E_SCREENSHOTS: process.env.E2E_SCREENSHOTS ?? '1',
  WRANGLER_SEND_METRICS: 'false',
}
const xvfb =
  chosen.some((engine) => engine.name === 'webkitgtk') && !process.env.DISPLAY
    ? await startXvfb()
    : undefined
if (xvfb) env.DISPLAY = xvfb.display
console.log(
  `test:engines: ${chosen.map((engine) => engine.what).join(' and ')}${xvfb ? ` (display ${xvfb.display})` : ''}`
)
const playwright = spawn(
  path.join(ROOT, 'node_modules/.bin/playwright'),
  ['test', '-c', 'tests/e2e/playwright.config.ts', ...process.argv.slice(2)],
  { cwd: ROOT, env, stdio: 'inherit' }
)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => playwright.kill(signal))
const status = await new Promise((resolve) =>
  playwright.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
)
xvfb?.stop()
process.exit(status)
