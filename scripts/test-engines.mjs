/**
 * `npm run test:engines`: the engine-neutral browser specs (tests/e2e/visitor-*.spec.ts) in the
 * two engines besides Chromium, as Debian ships them: Firefox ESR (driven by Puppeteer over
 * WebDriver BiDi) and WebKitGTK, Safari's engine (driven by Selenium through WebKitWebDriver, in an
 * Xvfb display when there is none). Nothing is downloaded. An engine that is not installed is
 * named with the apt-get line that installs it, and the run fails: never a silent pass.
 *
 * Extra arguments go to Playwright: `npm run test:engines -- visitor-words`.
 * E2E_ENGINES=firefox-esr (or webkitgtk) runs one of them only.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const ENGINES = [
  { name: 'firefox-esr', what: 'Firefox ESR', needs: ['/usr/bin/firefox-esr'], apt: 'sudo apt-get install -y firefox-esr' },
  {
    name: 'webkitgtk',
    what: 'WebKitGTK (WebKitWebDriver)',
    needs: ['/usr/bin/WebKitWebDriver', ...(process.env.DISPLAY ? [] : ['/usr/bin/Xvfb'])],
    apt: `sudo apt-get install -y webkit2gtk-driver${process.env.DISPLAY ? '' : ' xvfb'}`,
  },
]

const wanted = process.env.E2E_ENGINES ? process.env.E2E_ENGINES.split(',').map((name) => name.trim()) : ENGINES.map((engine) => engine.name)
const unknown = wanted.filter((name) => !ENGINES.some((engine) => engine.name === name))
if (unknown.length > 0) {
  console.error(`test:engines: unknown engine(s) ${unknown.join(', ')}; E2E_ENGINES takes ${ENGINES.map((engine) => engine.name).join(', ')}`)
  process.exit(1)
}
const chosen = ENGINES.filter((engine) => wanted.includes(engine.name))
const missing = chosen.filter((engine) => engine.needs.some((file) => !existsSync(file)))
const present = chosen.filter((engine) => !missing.includes(engine))

for (const engine of missing) {
  const absent = engine.needs.filter((file) => !existsSync(file)).join(', ')
  console.error(`test:engines: ${engine.what} is not installed (no ${absent}), so its tests cannot run. Install it with:\n  ${engine.apt}`)
}

/** Starts Xvfb on a free display number; resolves with ':<n>' and a stop function. */
function startXvfb() {
  return new Promise((resolve, reject) => {
    const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'ignore'] })
    xvfb.once('error', reject)
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it was ready`)))
    xvfb.stdout.once('data', (data) => resolve({ display: `:${String(data).trim()}`, stop: () => xvfb.kill('SIGTERM') }))
  })
}

let status = 0
if (present.length > 0) {
  const env = { ...process.env, E2E_ENGINES: present.map((engine) => engine.name).join(','), WRANGLER_SEND_METRICS: 'false' }
  const xvfb = present.some((engine) => engine.name === 'webkitgtk') && !process.env.DISPLAY ? await startXvfb() : undefined
  if (xvfb) env.DISPLAY = xvfb.display
  console.log(`test:engines: ${present.map((engine) => engine.what).join(' and ')}${xvfb ? ` (display ${xvfb.display})` : ''}`)
  const playwright = spawn(path.join(ROOT, 'node_modules/.bin/playwright'), ['test', '-c', 'tests/e2e/playwright.config.ts', ...process.argv.slice(2)], { cwd: ROOT, env, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => playwright.kill(signal))
  status = await new Promise((resolve) => playwright.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))))
  xvfb?.stop()
}

if (missing.length > 0) {
  console.error(`test:engines: FAILED: not run in ${missing.map((engine) => engine.what).join(' and ')} (not installed; see above).`)
  status ||= 1
}
process.exit(status)
