/**
 * Runs one of the operator's Node scripts as an operator does (`node scripts/ops/<name>.mjs ...`,
 * from the repository's root) and collects what it printed and its exit status.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export type ScriptRun = { status: number | null; stdout: string; stderr: string }

export function runScript(
  script: string,
  args: string[],
  env: Record<string, string | undefined> = {}
): Promise<ScriptRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_NO_WARNINGS: '1', ...env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}
