/// <reference types="node" />
/**
 * scripts/cpu-by-process.mjs, how docs/testing.md's "Where the time goes" is measured: it runs a
 * command, passes its exit status on, and names the kind of process that used the CPU.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runScript } from '../support/run-script'

/**
 * A Node process that spends `ms` of its own CPU time, then exits with `code`: CPU time, not a
 * wall-clock span, so that a busy machine stretches the run but not what it measures.
 */
const burn = (ms: number, code: number) =>
  `const cpu = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000 }; while (cpu() < ${ms}); process.exit(${code})`

describe('node scripts/cpu-by-process.mjs', () => {
  it('counts a busy child under its kind of process and passes its exit status on', async () => {
    const run = await runScript('scripts/cpu-by-process.mjs', [
      '--every',
      '200',
      '--',
      process.execPath,
      '-e',
      burn(2000, 3),
    ])
    expect(run.status, run.stderr).toBe(3)
    expect(run.stdout).toMatch(/^cpu-by-process: \d+ s; the machine busy \d+ CPU-s \(\d+ %\)/m)
    const node = /^ {2}other node +(\d+) CPU-s$/m.exec(run.stdout)
    expect(node, run.stdout).not.toBeNull()
    expect(Number(node![1])).toBeGreaterThanOrEqual(1)
  })

  it('writes each process that used CPU, its kind, CPU-s and command line, when asked', async () => {
    const file = path.join(
      mkdtempSync(path.join(os.tmpdir(), 'cpu-by-process-')),
      'processes.jsonl'
    )
    const run = await runScript('scripts/cpu-by-process.mjs', [
      '--every',
      '200',
      '--processes',
      file,
      '--',
      process.execPath,
      '-e',
      burn(1500, 0),
    ])
    expect(run.status, run.stderr).toBe(0)
    const processes = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; cpu: number; command: string })
    const burner = processes.find((found) => found.command.startsWith(`${process.execPath} -e `))
    expect(burner, JSON.stringify(processes)).toMatchObject({ kind: 'other node' })
    expect(burner!.cpu).toBeGreaterThanOrEqual(0.5)
  })

  it('refuses to run without a command, saying how to call it', async () => {
    const run = await runScript('scripts/cpu-by-process.mjs', ['--every', '100'])
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(/^usage: node scripts\/cpu-by-process\.mjs/)
  })
})
