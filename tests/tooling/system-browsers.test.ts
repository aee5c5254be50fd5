/// <reference types="node" />
/**
 * `npm test` and `npm run test:engines` provide the distribution's browsers their specs drive
 * (scripts/lib/system-browsers.mjs), as a newcomer on a fresh machine meets them: nothing is installed
 * (BROWSER_BIN_DIR points at an empty folder) and apt-get is a stand-in on PATH
 * (fixtures/fake-apt-get.mjs) that installs stand-in executables there. The stages are the
 * stand-in npm of run-tests.test.ts, so nothing here starts a browser or a server.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

type Machine = {
  /** Where the browsers are looked for and the stand-in apt-get installs them. */
  binDir: string
  /** A PATH holding the stand-in apt-get (when the machine has one) and nothing else. */
  pathDir: string
  /** Every apt-get call, one a line. */
  calls: string
}

/** A machine without any of the browsers; `apt: false` is one without apt-get at all. */
function freshMachine({ apt = true } = {}): Machine {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'system-browsers-'))
  chmodSync(dir, 0o755)
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const binDir = path.join(dir, 'usr-bin')
  const pathDir = path.join(dir, 'path')
  mkdirSync(binDir)
  mkdirSync(pathDir)
  if (apt) {
    const wrapper = path.join(pathDir, 'apt-get')
    writeFileSync(
      wrapper,
      `#!/bin/sh\nexec '${process.execPath}' '${path.join(ROOT, 'tests/tooling/fixtures/fake-apt-get.mjs')}' "$@"\n`
    )
    chmodSync(wrapper, 0o755)
  }
  return { binDir, pathDir, calls: path.join(dir, 'apt-calls.txt') }
}

function aptCalls(machine: Machine): string[] {
  return existsSync(machine.calls) ? readFileSync(machine.calls, 'utf8').trimEnd().split('\n') : []
}

function run(
  script: string,
  args: string[],
  machine: Machine,
  env: Record<string, string | undefined> = {},
  options: SpawnSyncOptions = {}
) {
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    ...options,
    env: {
      ...process.env,
      PATH: machine.pathDir,
      BROWSER_BIN_DIR: machine.binDir,
      FAKE_APT_CALLS: machine.calls,
      TEST_RUNNER_NPM: path.join(ROOT, 'tests/tooling/fixtures/fake-npm.mjs'),
      SKIP_CLIENT_BUILD: '1',
      KEEP_TEST_LOGS: '',
      CHROME_PATH: '',
      DISPLAY: '',
      ...env,
    },
  })
  const stdout = String(result.stdout)
  const logDir = /go to (\S+)\/$/m.exec(stdout)?.[1]
  if (logDir) onTestFinished(() => rmSync(logDir, { recursive: true, force: true }))
  return {
    status: result.status,
    lines: stdout.trimEnd().split('\n'),
    output: stdout + String(result.stderr),
    logDir,
  }
}

const npmTest = (
  args: string[],
  machine: Machine,
  env?: Record<string, string | undefined>,
  options?: SpawnSyncOptions
) => run('scripts/run-tests.mjs', args, machine, env, options)

describe('npm test on a machine without Debian’s chromium and its headless shell', () => {
  it('installs both with apt-get, updating the package lists first on a fresh machine, says so in one line, and runs the browser tests', () => {
    const machine = freshMachine()
    const { status, lines, output } = npmTest(['browser tests'], machine, {
      FAKE_APT_MODE: 'fresh',
    })
    expect(status, output).toBe(0)
    expect(lines.filter((line) => line.includes('apt-get'))).toEqual([
      expect.stringMatching(
        /^npm test: installing chromium chromium-headless-shell \(the browser tests need a Chromium with the back\/forward cache, .*; most browser tests drive .*\): apt-get install -y --no-install-recommends chromium chromium-headless-shell$/
      ),
    ])
    expect(aptCalls(machine)).toEqual([
      'apt-get install -y --no-install-recommends chromium chromium-headless-shell (DEBIAN_FRONTEND=noninteractive)',
      'apt-get update (DEBIAN_FRONTEND=noninteractive)',
      'apt-get install -y --no-install-recommends chromium chromium-headless-shell (DEBIAN_FRONTEND=noninteractive)',
    ])
    expect(existsSync(path.join(machine.binDir, 'chromium'))).toBe(true)
    expect(existsSync(path.join(machine.binDir, 'chromium-headless-shell'))).toBe(true)
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ok browser tests \(\d+ s, \d+ CPU-s\): e2e: 3 passed, 0 failed, 0 skipped$/
      )
    )
    expect(lines.at(-1)).toBe('npm test: all 1 stages passed')
  })

  it('stops before any stage, naming the sudo command, when it is not root', () => {
    const machine = freshMachine()
    const { status, lines, output } = npmTest([], machine, { BROWSER_INSTALL_UID: '65534' })
    expect(status, output).toBe(1)
    expect(lines.slice(-2)).toEqual([
      `npm test: not installed: ${machine.binDir}/chromium (the browser tests need a Chromium with the back/forward cache, which the @sparticuz/chromium build lacks); ${machine.binDir}/chromium-headless-shell (most browser tests drive the same Chromium as its headless shell, which spends less CPU per page). Install with:`,
      '  sudo apt-get install -y chromium chromium-headless-shell',
    ])
    expect(output).not.toMatch(/^-> /m)
    expect(aptCalls(machine)).toEqual([])
  })

  it('stops before any stage when the machine has no apt-get, saying what to install', () => {
    const machine = freshMachine({ apt: false })
    const { status, lines, output } = npmTest([], machine)
    expect(status, output).toBe(1)
    expect(lines.at(-1)).toMatch(
      /^npm test: not installed: .*\/chromium \(.*\); .*\/chromium-headless-shell \(.*\)\. This machine has no apt-get: install chromium chromium-headless-shell with its package manager, then run this again\.$/
    )
    expect(output).not.toMatch(/^-> /m)
  })

  it('stops before any stage when apt-get fails, naming its log and the command to run', () => {
    const machine = freshMachine()
    const { status, lines, output, logDir } = npmTest(['browser tests', 'freshness'], machine, {
      FAKE_APT_MODE: 'broken',
    })
    expect(status, output).toBe(1)
    expect(lines.slice(-2)).toEqual([
      `npm test: could not install chromium chromium-headless-shell: apt-get failed (its output: ${logDir}/apt-get.log). Install with:`,
      '  sudo apt-get install -y chromium chromium-headless-shell',
    ])
    expect(readFileSync(`${logDir}/apt-get.log`, 'utf8')).toContain(
      'E: Unable to locate package (stand-in)'
    )
    expect(output).not.toMatch(/^-> /m)
  })

  it('installs only what is missing: the headless shell beside an installed chromium', () => {
    const machine = freshMachine()
    writeFileSync(path.join(machine.binDir, 'chromium'), '#!/bin/sh\n', { mode: 0o755 })
    const { status, output } = npmTest(['browser tests'], machine)
    expect(status, output).toBe(0)
    expect(aptCalls(machine)).toEqual([
      'apt-get install -y --no-install-recommends chromium-headless-shell (DEBIAN_FRONTEND=noninteractive)',
    ])
  })

  it('installs nothing when both are there, when CHROME_PATH names another browser, or when no chosen stage drives a browser', () => {
    const installed = freshMachine()
    for (const file of ['chromium', 'chromium-headless-shell'])
      writeFileSync(path.join(installed.binDir, file), '#!/bin/sh\n', { mode: 0o755 })
    expect(npmTest(['browser tests'], installed).status).toBe(0)
    expect(aptCalls(installed)).toEqual([])

    const other = freshMachine()
    expect(npmTest(['browser tests'], other, { CHROME_PATH: process.execPath }).status).toBe(0)
    expect(npmTest(['freshness'], other).status).toBe(0)
    expect(aptCalls(other)).toEqual([])
    expect(existsSync(path.join(other.binDir, 'chromium'))).toBe(false)
    expect(existsSync(path.join(other.binDir, 'chromium-headless-shell'))).toBe(false)
  })
})

describe('npm run test:engines on a machine without Firefox ESR and WebKitGTK', () => {
  it('installs firefox-esr, webkit2gtk-driver and xvfb with apt-get in one line, then runs the visitor specs in both', () => {
    const machine = freshMachine()
    // `--list`: Playwright names the specs it would run in each engine, and starts no browser.
    const { status, lines, output } = run('scripts/test-engines.mjs', ['--list'], machine, {
      PATH: `${machine.pathDir}${path.delimiter}${path.dirname(process.execPath)}`,
    })
    expect(status, output).toBe(0)
    expect(lines.filter((line) => line.includes('apt-get'))).toEqual([
      expect.stringMatching(
        /^test:engines: installing firefox-esr webkit2gtk-driver xvfb \(.*\): apt-get install -y --no-install-recommends firefox-esr webkit2gtk-driver xvfb$/
      ),
    ])
    expect(aptCalls(machine)).toEqual([
      'apt-get install -y --no-install-recommends firefox-esr webkit2gtk-driver xvfb (DEBIAN_FRONTEND=noninteractive)',
    ])
    expect(lines).toContain(
      'test:engines: Firefox ESR and WebKitGTK (WebKitWebDriver) (display :99)'
    )
    expect(output).toMatch(/\[firefox-esr\] › visitor-pages\.spec\.ts/)
    expect(output).toMatch(/\[webkitgtk\] › visitor-words\.spec\.ts/)
  })

  it('stops before any test, naming the one sudo command, when it is not root', () => {
    const machine = freshMachine()
    const { status, output } = run('scripts/test-engines.mjs', [], machine, {
      BROWSER_INSTALL_UID: '65534',
    })
    expect(status, output).toBe(1)
    expect(output).toContain(
      '\n  sudo apt-get install -y firefox-esr webkit2gtk-driver xvfb\ntest:engines: FAILED: nothing run.'
    )
    expect(aptCalls(machine)).toEqual([])
  })

  it('needs no xvfb when there is a display, and only the engine E2E_ENGINES names', () => {
    const machine = freshMachine({ apt: false })
    const { status, output } = run('scripts/test-engines.mjs', [], machine, {
      DISPLAY: ':5',
      E2E_ENGINES: 'webkitgtk',
    })
    expect(status, output).toBe(1)
    expect(output).toContain(
      'This machine has no apt-get: install webkit2gtk-driver with its package manager'
    )
  })
})
