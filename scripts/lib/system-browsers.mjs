// @ts-check
/**
 * The distribution's browsers the tests drive, provided the way `npx playwright install --with-deps`
 * provides Playwright's own: `npm test` and `npm run test:engines` call provideBrowsers() before
 * they run anything.
 *
 * - Everything a run needs is installed: nothing happens.
 * - Something is missing and this machine can install it (root, apt-get): `apt-get install` of
 *   the Debian packages, announced in one line; apt's output goes to a log file, named if it fails.
 * - Otherwise the run fails at once, naming the one command that installs what is missing
 *   (`sudo apt-get install -y chromium`). A spec is never skipped for want of a browser.
 *
 * Browsers are looked for in BROWSER_BIN_DIR (default /usr/bin, where Debian puts them); the tests
 * of this module (tests/tooling/system-browsers.test.ts) point it at an empty folder, put a
 * stand-in apt-get on PATH, and name a user other than root in BROWSER_INSTALL_UID.
 */
import { spawnSync } from 'node:child_process'
import { accessSync, appendFileSync, constants, existsSync } from 'node:fs'
import path from 'node:path'

/** Where the distribution's browsers are installed (BROWSER_BIN_DIR overrides it, for tests). */
export const BROWSER_BIN_DIR = process.env.BROWSER_BIN_DIR || '/usr/bin'

/**
 * @typedef {{ package: string, file: string, why: string }} SystemBrowser
 * A Debian package and the executable it installs in BROWSER_BIN_DIR.
 */

/** @satisfies {Record<string, SystemBrowser>} */
export const SYSTEM_BROWSERS = {
  chromium: {
    package: 'chromium',
    file: 'chromium',
    why: 'the browser tests need a Chromium with the back/forward cache, which the @sparticuz/chromium build lacks',
  },
  chromiumHeadlessShell: {
    package: 'chromium-headless-shell',
    file: 'chromium-headless-shell',
    why: 'most browser tests drive the same Chromium as its headless shell, which spends less CPU per page',
  },
  firefoxEsr: {
    package: 'firefox-esr',
    file: 'firefox-esr',
    why: 'the visitor specs in Firefox ESR',
  },
  webkitDriver: {
    package: 'webkit2gtk-driver',
    file: 'WebKitWebDriver',
    why: 'the visitor specs in WebKitGTK',
  },
  xvfb: { package: 'xvfb', file: 'Xvfb', why: 'a display for WebKitGTK, as there is none' },
}

/** @param {SystemBrowser} browser @returns {string} where the browser's executable is */
export function browserExecutable(browser) {
  return path.join(BROWSER_BIN_DIR, browser.file)
}

/**
 * Makes sure every browser in `needs` is installed, installing the missing ones when it can.
 * @param {{ who: string, needs: SystemBrowser[], log?: (line: string) => void, logFile?: string }} options
 *   `who` starts each line printed ('npm test'); `logFile` receives apt-get's output.
 * @returns {{ ok: true } | { ok: false, message: string }}
 */
export function provideBrowsers({ who, needs, log = console.log, logFile }) {
  const missing = needs.filter((browser) => !existsSync(browserExecutable(browser)))
  if (missing.length === 0) return { ok: true }
  const packages = missing.map((browser) => browser.package).join(' ')
  const absent = missing
    .map((browser) => `${browserExecutable(browser)} (${browser.why})`)
    .join('; ')
  const aptGet = findOnPath('apt-get')
  // BROWSER_INSTALL_UID stands in for the user in this module's tests: running them as another
  // user would need a checkout that user may read, which a private clone (mktemp -d) is not.
  const uid = process.env.BROWSER_INSTALL_UID
    ? Number(process.env.BROWSER_INSTALL_UID)
    : process.getuid?.()
  const isRoot = uid === 0

  if (!aptGet) {
    return {
      ok: false,
      message: `${who}: not installed: ${absent}. This machine has no apt-get: install ${packages} with its package manager, then run this again.`,
    }
  }
  if (!isRoot) {
    return {
      ok: false,
      message: `${who}: not installed: ${absent}. Install with:\n  sudo apt-get install -y ${packages}`,
    }
  }

  log(
    `${who}: installing ${packages} (${missing.map((browser) => browser.why).join('; ')}): apt-get install -y --no-install-recommends ${packages}`
  )
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  /** @param {string[]} args */
  const apt = (args) => {
    const result = spawnSync(aptGet, args, {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    if (logFile)
      appendFileSync(
        logFile,
        `$ apt-get ${args.join(' ')}\n${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? `${result.error.message}\n` : ''}exit ${result.status}\n`
      )
    return result.status === 0
  }
  const install = [
    'install',
    '-y',
    '--no-install-recommends',
    ...missing.map((browser) => browser.package),
  ]
  // A fresh machine (a container) has no package lists yet: update them and try once more.
  const installed = apt(install) || (apt(['update']) && apt(install))
  const stillMissing = missing.filter((browser) => !existsSync(browserExecutable(browser)))
  if (installed && stillMissing.length === 0) return { ok: true }
  const why = installed
    ? `apt-get succeeded but ${stillMissing.map(browserExecutable).join(', ')} is still missing`
    : 'apt-get failed'
  return {
    ok: false,
    message: `${who}: could not install ${packages}: ${why}${logFile ? ` (its output: ${logFile})` : ''}. Install with:\n  sudo apt-get install -y ${packages}`,
  }
}

/** @param {string} name @returns {string | undefined} the executable `name` on PATH */
function findOnPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue
    const candidate = path.join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not here.
    }
  }
  return undefined
}
