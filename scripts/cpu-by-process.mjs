#!/usr/bin/env node
// @ts-check
/**
 * `node scripts/cpu-by-process.mjs [--every <ms>] [--processes <file>] -- <command...>`: runs a command and says where
 * the machine's CPU went while it ran, by kind of process (Chromium's headless shell, workerd,
 * wrangler's Node, Vitest, Playwright, tsc...), the machine's busy share and its idle CPU seconds.
 * How docs/testing.md's "Where the time goes" is measured: `node scripts/cpu-by-process.mjs -- npm test`.
 *
 * It reads every process's user + system time from /proc/<pid>/stat every `--every` ms (default
 * 1000), so it sees processes whose parents never wait for them (a `wrangler dev`'s workerd, a
 * browser's renderers), which the CPU-s that `npm test` prints per stage cannot. What it misses:
 * a process that starts and ends between two readings, and up to one interval of each process's
 * time before it was first seen. Every process on the machine is counted, the command's or not:
 * run it on an otherwise idle machine (a CPU burner shows as `other`). Linux only.
 * `--processes <file>` also writes each process that used CPU, one JSON line each
 * (`{ kind, cpu, command }`), to find which server or script inside a kind costs what.
 */
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'

/** Kinds of process, the first pattern its command line matches naming it. */
const KINDS = /** @type {const} */ ([
  ['chromium (headless shell)', /chromium-headless-shell|headless_shell/],
  ['chromium', /chromium|chrome/],
  ['workerd', /workerd/],
  ['esbuild', /esbuild/],
  ['wrangler (Node)', /wrangler/],
  ['vitest', /vitest/],
  ['playwright', /playwright/],
  ['tsc', /typescript\/bin\/tsc|\btsc\b/],
  ['prettier', /prettier/],
  ['actionlint', /actionlint/],
  ['other node', /\bnode\b/],
])
/** Kernel clock ticks per second (USER_HZ), 100 on Linux. */
const TICKS = 100

const args = process.argv.slice(2)
const dash = args.indexOf('--')
const command = dash >= 0 ? args.slice(dash + 1) : []
const everyIndex = args.indexOf('--every')
const every = everyIndex >= 0 && everyIndex < dash ? Number(args[everyIndex + 1]) : 1000
const processesIndex = args.indexOf('--processes')
const processesFile =
  processesIndex >= 0 && processesIndex < dash ? args[processesIndex + 1] : undefined
if (!command.length || !(every > 0) || (processesIndex >= 0 && !processesFile)) {
  console.error(
    'usage: node scripts/cpu-by-process.mjs [--every <ms>] [--processes <file>] -- <command...>'
  )
  process.exit(2)
}

/** @type {Map<string, { kind: string, command: string, first: number, last: number }>} pid and start time -> ticks */
const seen = new Map()

function commandOf(/** @type {string} */ pid) {
  const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
  // A process that has exited but is not yet reaped has an empty command line.
  if (!line) return null
  return { line, kind: KINDS.find(([, pattern]) => pattern.test(line))?.[0] ?? 'other' }
}

function read() {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const ticks = Number(fields[11]) + Number(fields[12])
      const key = `${pid}:${fields[19]}`
      const known = seen.get(key)
      // The kind is read again each time: a process first seen between its fork and its exec
      // still had its parent's command line.
      const found = commandOf(pid)
      if (known) {
        known.last = ticks
        if (found) Object.assign(known, { kind: found.kind, command: found.line })
      } else
        seen.set(key, {
          kind: found?.kind ?? 'other',
          command: found?.line ?? '',
          first: ticks,
          last: ticks,
        })
    } catch {
      // Ended in between, or a kernel thread without a command line.
    }
  }
}

/** The machine's busy and idle ticks, from /proc/stat's first line. */
function machine() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)
  const ticks = values.map(Number)
  const idle = ticks[3] + ticks[4]
  return { busy: ticks.slice(0, 8).reduce((a, b) => a + b, 0) - idle, idle }
}

read()
const before = machine()
const started = Date.now()
const timer = setInterval(read, every)
const child = spawn(command[0], command.slice(1), { stdio: 'inherit' })
const code = await new Promise((resolve) => child.on('close', (status) => resolve(status ?? 1)))
clearInterval(timer)
read()
const after = machine()
const seconds = (Date.now() - started) / 1000

/** @type {Map<string, number>} */
const byKind = new Map()
for (const { kind, first, last } of seen.values())
  byKind.set(kind, (byKind.get(kind) ?? 0) + (last - first) / TICKS)
const busy = (after.busy - before.busy) / TICKS
const idle = (after.idle - before.idle) / TICKS
console.log(
  `\ncpu-by-process: ${Math.round(seconds)} s; the machine busy ${Math.round(busy)} CPU-s ` +
    `(${Math.round((100 * busy) / (busy + idle))} %), idle ${Math.round(idle)} CPU-s; by kind of process:`
)
for (const [kind, cpu] of [...byKind].sort((a, b) => b[1] - a[1]))
  if (cpu >= 0.5)
    console.log(`  ${kind.padEnd(28)} ${Math.round(cpu).toString().padStart(6)} CPU-s`)
if (processesFile)
  writeFileSync(
    processesFile,
    [...seen.values()]
      .filter(({ first, last }) => last > first)
      .map(({ kind, command, first, last }) =>
        JSON.stringify({ kind, cpu: (last - first) / TICKS, command: command.slice(0, 400) })
      )
      .join('\n') + '\n'
  )
process.exitCode = Number(code)
