/// <reference types="node" />
/**
 * scripts/lib/local-site.mjs, which starts every local site the tests, the soak and the bench use:
 * a port it found free may be taken before wrangler binds it, and it then starts again on others.
 * `wrangler dev` is played by tests/tooling/fixtures/fake-wrangler-dev.mjs, which behaves as
 * wrangler does on a taken port.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

/** What this test uses of the module (plain JavaScript, typed in its JSDoc, which this project does not read). */
type LocalSite = {
  freePort: () => Promise<number>
  START_ATTEMPTS: number
  startSite: (options: {
    logFile: string
    cli: string
    pickPort: () => Promise<number>
    configs: string[]
  }) => Promise<{ origin: string; stop: () => Promise<void> }>
}
const MODULE: string = '../../scripts/lib/local-site.mjs'
const { freePort, START_ATTEMPTS, startSite } = (await import(MODULE)) as LocalSite

const CLI = fileURLToPath(new URL('./fixtures/fake-wrangler-dev.mjs', import.meta.url))

let folder: string
let taken: Server
let takenPort: number

beforeEach(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'local-site-'))
  // Held by something that is not the site: it hangs up on whoever connects.
  taken = createServer((socket) => socket.destroy())
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
  takenPort = (taken.address() as { port: number }).port
})

afterEach(async () => {
  delete process.env.FAKE_DEV_FAILURE
  await new Promise((resolve) => taken.close(resolve))
  rmSync(folder, { recursive: true, force: true })
})

/** Hands out `first` ports from `ports`, then free ones; counts the calls. */
function portsFrom(ports: number[]) {
  const picker = async () => {
    picker.calls += 1
    return ports.shift() ?? freePort()
  }
  picker.calls = 0
  return picker
}

describe('starting a local site', () => {
  it('starts again on other ports when the port it picked was taken before wrangler bound it', async () => {
    const logFile = path.join(folder, 'site.log')
    const pickPort = portsFrom([takenPort])
    const site = await startSite({ logFile, cli: CLI, pickPort, configs: [] })
    try {
      expect(new URL(site.origin).port).not.toBe(String(takenPort))
      expect(await (await fetch(site.origin)).text()).toBe('ok')
      const log = readFileSync(logFile, 'utf8')
      expect(log).toContain(`Address already in use (127.0.0.1:${takenPort})`)
      expect(log).toContain(`(start 2 of ${START_ATTEMPTS}, on ports picked afresh)`)
    } finally {
      await site.stop()
    }
  })

  it(`gives up after ${START_ATTEMPTS} starts on taken ports, naming the log`, async () => {
    const logFile = path.join(folder, 'site.log')
    const pickPort = portsFrom(Array<number>(START_ATTEMPTS * 2).fill(takenPort))
    await expect(startSite({ logFile, cli: CLI, pickPort, configs: [] })).rejects.toThrow(
      `wrangler dev exited with 1; see ${logFile}`
    )
    expect(pickPort.calls).toBe(START_ATTEMPTS * 2)
  })

  it('does not start again after any other failure', async () => {
    process.env.FAKE_DEV_FAILURE = 'The entry-point file at "src/index.ts" was not found.'
    const logFile = path.join(folder, 'site.log')
    const pickPort = portsFrom([])
    await expect(startSite({ logFile, cli: CLI, pickPort, configs: [] })).rejects.toThrow(
      `wrangler dev exited with 1; see ${logFile}`
    )
    expect(pickPort.calls).toBe(2)
    expect(readFileSync(logFile, 'utf8')).toContain('entry-point file')
  })
})
