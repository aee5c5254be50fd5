/// <reference types="node" />
/**
 * scripts/ops/rollout.mjs, the gradual-deploy step of .github/workflows/deploy.yml, against a
 * stand-in for wrangler (fixtures/fake-wrangler.mjs): which versions it deploys, at what shares.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const VERSIONS = JSON.stringify([
  { id: 'v1-id', annotations: { 'workers/tag': 'v1.0.0' } },
  { id: 'v2-id', annotations: { 'workers/tag': 'v1.1.0' } },
])

function rollout(
  args: string[],
  serving?: { version_id: string; percentage: number }[],
  githubOutput = ''
) {
  const result = spawnSync(
    process.execPath,
    ['scripts/ops/rollout.mjs', '--env', 'production', ...args],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: {
        ...process.env,
        ROLLOUT_WRANGLER: path.join(ROOT, 'tests/tooling/fixtures/fake-wrangler.mjs'),
        FAKE_VERSIONS: VERSIONS,
        FAKE_SERVING: serving ? JSON.stringify(serving) : '',
        // A CI job's own output file is not the tests' to write.
        GITHUB_OUTPUT: githubOutput,
      },
    }
  )
  const deployed = result.stdout.split('\n').find((line) => line.startsWith('DEPLOYED '))
  return { status: result.status, deployed, output: `${result.stdout}${result.stderr}` }
}

describe('scripts/ops/rollout.mjs', () => {
  it('gives the tagged version its share and leaves the rest on the version serving now', () => {
    const { status, deployed } = rollout(
      ['--tag', 'v1.1.0', '--percentage', '10'],
      [{ version_id: 'v1-id', percentage: 100 }]
    )
    expect(deployed).toBe(
      'DEPLOYED versions deploy v2-id@10% v1-id@90% --yes --message v1.1.0 at 10% --env=production'
    )
    expect(status).toBe(0)
  })

  it('moves a rollout in progress on, splitting with the version that is not the new one', () => {
    const serving = [
      { version_id: 'v2-id', percentage: 10 },
      { version_id: 'v1-id', percentage: 90 },
    ]
    const { deployed } = rollout(['--tag', 'v1.1.0', '--percentage', '50'], serving)
    expect(deployed).toBe(
      'DEPLOYED versions deploy v2-id@50% v1-id@50% --yes --message v1.1.0 at 50% --env=production'
    )
  })

  it('deploys to all traffic at 100, and when nothing is deployed yet', () => {
    expect(
      rollout(
        ['--tag', 'v1.1.0', '--percentage', '100'],
        [{ version_id: 'v1-id', percentage: 100 }]
      ).deployed
    ).toBe('DEPLOYED versions deploy v2-id@100% --yes --message v1.1.0 at 100% --env=production')
    expect(rollout(['--tag', 'v1.1.0', '--percentage', '10']).deployed).toBe(
      'DEPLOYED versions deploy v2-id@100% --yes --message v1.1.0 at 100% --env=production'
    )
  })

  it("hands the version's id to the workflow's next step (the smoke pinned to it) through GITHUB_OUTPUT", () => {
    const output = path.join(mkdtempSync(path.join(os.tmpdir(), 'rollout-')), 'output')
    writeFileSync(output, 'earlier=1\n')
    const { status } = rollout(
      ['--tag', 'v1.1.0', '--percentage', '10'],
      [{ version_id: 'v1-id', percentage: 100 }],
      output
    )
    expect(status).toBe(0)
    expect(readFileSync(output, 'utf8')).toBe('earlier=1\nversion_id=v2-id\n')
    rmSync(path.dirname(output), { recursive: true, force: true })
  })

  it('refuses a tag with no uploaded version, and deploys nothing', () => {
    const { status, deployed, output } = rollout(
      ['--tag', 'v9.9.9'],
      [{ version_id: 'v1-id', percentage: 100 }]
    )
    expect(output).toContain(
      'no version of the production worker is tagged v9.9.9: upload it first'
    )
    expect(deployed).toBeUndefined()
    expect(status).toBe(1)
  })

  it('refuses a percentage outside 1 to 100, and deploys nothing', () => {
    const { status, deployed, output } = rollout(['--tag', 'v1.1.0', '--percentage', '0'])
    expect(output).toContain('--percentage must be a whole number from 1 to 100, not 0')
    expect(deployed).toBeUndefined()
    expect(status).toBe(1)
  })
})
