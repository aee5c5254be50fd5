/// <reference types="node" />
/**
 * scripts/run-tests.mjs, `npm test`, with a stand-in for npm (fixtures/fake-npm.mjs) whose stages
 * pass or fail at once: what the terminal shows of a green stage and of a red one, and where the
 * rest of their output goes.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

function runTests(stages: string[]) {
  const result = spawnSync(process.execPath, ['scripts/run-tests.mjs', ...stages], {
    cwd: ROOT,
    encoding: 'utf8',
    env: {
      ...process.env,
      TEST_RUNNER_NPM: path.join(ROOT, 'tests/tooling/fixtures/fake-npm.mjs'),
      SKIP_CLIENT_BUILD: '1',
      KEEP_TEST_LOGS: '',
    },
  })
  const logDir = /go to (\S+)\/$/m.exec(result.stdout)?.[1] ?? ''
  // A failed run keeps its logs for whoever reads them; the test has read them.
  if (logDir) onTestFinished(() => rmSync(logDir, { recursive: true, force: true }))
  return {
    status: result.status,
    lines: result.stdout.trimEnd().split('\n'),
    output: result.stdout + result.stderr,
    logDir,
  }
}

describe('npm test (scripts/run-tests.mjs)', () => {
  it('shows a green stage as one line with its summary, and deletes its logs when all passed', () => {
    const { status, lines, output, logDir } = runTests(['freshness'])
    expect(status, output).toBe(0)
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ok freshness \(\d+ s, \d+ CPU-s\): Freshness: a backend edit reached the page through visits after CONTENT_TTL, and at once after the publish hook\.$/
      )
    )
    expect(output).not.toContain('noise line')
    expect(lines.at(-1)).toBe('npm test: all 1 stages passed')
    expect(lines.length).toBeLessThan(10)
    expect(logDir).toMatch(/erebuni-tests-/)
    expect(existsSync(logDir)).toBe(false)
  })

  it("shows a red stage's failure report and where its whole log and its servers' logs are, and exits 1", () => {
    const { status, lines, output, logDir } = runTests(['freshness', 'smoke'])
    expect(status, output).toBe(1)
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^FAIL smoke \(npm run test:smoke, exit 1, \d+ s, \d+ CPU-s\)\. Its failure report:$/
      )
    )
    expect(lines).toContain(
      '  |  FAIL  |smoke| tests/smoke/smoke.test.ts > /en/about shows the English page'
    )
    expect(lines).toContain("  | AssertionError: expected 'lang ru' to be 'lang en'")
    expect(lines).toContain('  |       Tests  1 failed | 5 passed (6)')
    expect(output).not.toContain('progress line')
    expect(lines).toContain(
      `FAIL smoke: whole log ${logDir}/smoke.log; servers' logs beside it in ${logDir}/`
    )
    expect(readFileSync(path.join(logDir, 'smoke.log'), 'utf8')).toContain('progress line 299')
    expect(readFileSync(path.join(logDir, 'freshness-wrangler.log'), 'utf8')).toContain(
      'GET /en 200 OK'
    )
    expect(lines.at(-1)).toBe(`npm test: FAILED: smoke (log: ${logDir}/smoke.log)`)
    expect(lines.length).toBeLessThan(100)
  })

  it('refuses a stage it does not know, naming the ones it has', () => {
    const { status, output } = runTests(['lint'])
    expect(status).toBe(2)
    expect(output).toContain(
      'npm test: no stage lint; stages: checks, worker tests, browser tests, freshness, smoke, soak'
    )
  })
})
