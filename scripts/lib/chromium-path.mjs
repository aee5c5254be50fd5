/**
 * Finds the Chromiums for the browser tests without downloading one.
 *
 * chromiumPath(), the whole browser (the bench, and the specs that need what only it has: the
 * back/forward cache, prerendering as visitors get it), in this order:
 * 1. $CHROME_PATH when set;
 * 2. /usr/bin/chromium (Debian's package) when it exists (`npm test` installs it when it can:
 *    scripts/lib/system-browsers.mjs);
 * 3. the binary bundled in the `@sparticuz/chromium` npm package, extracted once into
 *    node_modules/.cache/sparticuz-chromium/<version>/ and checked with `--version` before use. It
 *    has no back/forward cache, so tests/e2e/back-forward-cache.spec.ts fails with it, saying why.
 *
 * headlessShellPath(), what every other browser spec drives (docs/decisions/0036): $CHROME_PATH when
 * set; else /usr/bin/chromium-headless-shell, Debian's build of the same Chromium without the
 * browser's shell (`npm test` installs it beside `chromium`); else chromiumPath().
 *
 * `node scripts/lib/chromium-path.mjs` prints the path it chose and its version; with `--bundled`,
 * only the path of the @sparticuz/chromium binary, whatever else is installed.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { browserExecutable, SYSTEM_BROWSERS } from './system-browsers.mjs'

/** Flags every browser test launches with: no sandbox (root), and no traffic to Google's hosts. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

const DEBIAN_CHROMIUM = browserExecutable(SYSTEM_BROWSERS.chromium)
const DEBIAN_HEADLESS_SHELL = browserExecutable(SYSTEM_BROWSERS.chromiumHeadlessShell)
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** @returns {Promise<string>} the absolute path of a Chromium executable that starts. */
export async function chromiumPath() {
  const fromEnv = process.env.CHROME_PATH
  if (fromEnv) {
    if (!existsSync(fromEnv))
      throw new Error(`CHROME_PATH is set to ${fromEnv}, which does not exist`)
    return fromEnv
  }
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM
  return bundledChromium()
}

/** @returns {Promise<string>} the headless shell's path, else the whole browser's (chromiumPath()). */
export async function headlessShellPath() {
  if (!process.env.CHROME_PATH && existsSync(DEBIAN_HEADLESS_SHELL)) return DEBIAN_HEADLESS_SHELL
  return chromiumPath()
}

/**
 * The browser's own version line, e.g. 'Chromium 147.0.7727.0'.
 * @param {string} executable
 * @returns {string}
 */
export function chromiumVersion(executable) {
  return execFileSync(executable, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim()
}

/**
 * Extracts @sparticuz/chromium's brotli-packed binary. The package always extracts into
 * os.tmpdir(), so TMPDIR points at a private folder for the duration of the call; the folder is
 * renamed into place only once the binary answers `--version`, so a half-extracted copy (an
 * interrupted run) or a copy of another package version is never used.
 */
async function bundledChromium() {
  const require = createRequire(path.join(ROOT, 'package.json'))
  const packageDir = path.resolve(path.dirname(require.resolve('@sparticuz/chromium')), '..', '..')
  const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'))
  const cacheDir = path.join(ROOT, 'node_modules', '.cache', 'sparticuz-chromium', version)
  const executable = path.join(cacheDir, 'chromium')
  if (existsSync(path.join(cacheDir, '.verified'))) return executable

  const staging = `${cacheDir}.tmp-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  const savedTmpdir = process.env.TMPDIR
  process.env.TMPDIR = staging
  let extracted
  try {
    const { default: chromium } = await import('@sparticuz/chromium')
    extracted = await chromium.executablePath()
  } finally {
    if (savedTmpdir === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = savedTmpdir
  }
  if (path.resolve(extracted) !== path.join(staging, 'chromium')) {
    throw new Error(`@sparticuz/chromium extracted to ${extracted}, expected ${staging}/chromium`)
  }
  const versionLine = chromiumVersion(extracted)
  writeFileSync(path.join(staging, '.verified'), `${versionLine}\n`)

  // A folder without the marker is a leftover of an old layout or a failed run.
  if (existsSync(cacheDir) && !existsSync(path.join(cacheDir, '.verified'))) {
    rmSync(cacheDir, { recursive: true, force: true })
  }
  try {
    renameSync(staging, cacheDir)
  } catch (error) {
    // Another process finished the same extraction first; its copy is just as good.
    rmSync(staging, { recursive: true, force: true })
    if (!existsSync(path.join(cacheDir, '.verified'))) throw error
  }
  return executable
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--bundled')) {
    // Only the path, for CHROME_PATH=$(node scripts/lib/chromium-path.mjs --bundled) npm run test:e2e.
    console.log(await bundledChromium())
  } else {
    const executable = await chromiumPath()
    console.log(executable)
    console.log(chromiumVersion(executable))
  }
}
