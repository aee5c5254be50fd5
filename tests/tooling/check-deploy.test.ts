/// <reference types="node" />
/**
 * `npm run check:deploy` as an operator meets it: run on a configuration, it passes a complete
 * one and fails, saying why, on the mistakes that would otherwise reach a deploy. (On the real
 * wrangler.toml files it runs in `npm test` itself.)
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

function checkDeploy(fixture: string) {
  const result = spawnSync(
    process.execPath,
    ['scripts/ops/check-deploy.mjs', `tests/tooling/fixtures/${fixture}`],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    }
  )
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

describe('npm run check:deploy', () => {
  it('passes a configuration whose environments have every binding and no id', () => {
    const { status, output } = checkDeploy('complete.toml')
    expect(output).toContain('ok   tests/tooling/fixtures/complete.toml --env staging')
    expect(status).toBe(0)
    // A deadline, not a measure: three `wrangler deploy --dry-run` bundles, seconds each on a
    // busy 2-core machine.
  }, 180_000)

  it('fails when an environment lacks a binding of the top level', () => {
    const { status, output } = checkDeploy('missing-binding.toml')
    expect(output).toContain('[env.staging]: missing EVENTS, which the top level has')
    expect(status).toBe(1)
  })

  it('fails on each placeholder id, and lets a real id through', () => {
    const { status, output } = checkDeploy('placeholder-id.toml')
    expect(output).toContain(
      '(top level): CACHE names the placeholder id 00000000000000000000000000000000'
    )
    expect(output).toContain(
      '[env.staging]: CACHE names the placeholder id 11111111111111111111111111111111'
    )
    expect(output).not.toContain('4f2c9a1e8b7d4c3a9e6f1b2d3c4a5e6f')
    expect(status).toBe(1)
  })

  it('fails when an environment consumes a queue with other settings, or leaves its dead letters unconsumed', () => {
    const { status, output } = checkDeploy('queue-consumer-differs.toml')
    expect(output).toContain(
      '[env.staging]: the consumer of JOBS has {"max_retries":3,"dead_letter_queue":"dead letters of JOBS"}, the top level {"max_retries":5,"dead_letter_queue":"dead letters of JOBS"}'
    )
    expect(output).toContain(
      '[env.staging]: no consumer of dead letters of JOBS, which the top level consumes'
    )
    expect(output).toContain(
      '[env.staging]: no consumer of fixture-staging-jobs-dead, the dead-letter queue of JOBS: its messages would sit unseen'
    )
    expect(status).toBe(1)
  })

  it('fails when an environment requires a secret that .dev.vars.example does not explain', () => {
    const { status, output } = checkDeploy('undocumented-secret.toml')
    expect(output).toContain(
      '[env.staging]: the required secret UNEXPLAINED_SECRET is not explained in .dev.vars.example'
    )
    expect(status).toBe(1)
  })
})
