/// <reference types="node" />
/**
 * The smoke's HTTPS check (scripts/ops/smoke/https.mjs) as an operator meets it, `npm run smoke -- <base
 * URL>` against a deployed site: `http://` of the base URL must answer a permanent redirect to the
 * same address over HTTPS, in one hop. A stand-in site on 127.0.0.2 (loopback to the machine, but
 * not an address the site or the smoke treat as local development) answers the `http://` request as
 * each kind of site would; it serves no HTTPS, so the smoke's other checks fail, and only the HTTPS
 * check's line is read here.
 */
import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const NAME = 'http:// redirects to https:// in one hop, /en/about'

let server: Server | undefined
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
)

/** A plain-HTTP site on 127.0.0.2 answering every request with `status` and `location`; its https:// origin. */
async function site(status: number, location?: (port: number) => string): Promise<string> {
  server = createServer((_, response) => {
    const { port } = server!.address() as AddressInfo
    response.writeHead(status, location ? { Location: location(port) } : {}).end()
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.2', () => resolve()))
  return `https://127.0.0.2:${(server.address() as AddressInfo).port}`
}

/** The smoke's line for the HTTPS check, run against `origin`. */
async function smokeLine(origin: string): Promise<string> {
  const child = spawn(process.execPath, ['scripts/ops/smoke.mjs', origin], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  await new Promise((resolve) => child.once('close', resolve))
  return (
    output.split('\n').find((line) => line.slice(6).startsWith(NAME)) ??
    `(no line for the HTTPS check in:\n${output})`
  )
}

describe('npm run smoke: http:// redirects to https://', () => {
  it.each([301, 308])('passes a %i to the same address over https', async (status) => {
    const origin = await site(status, (port) => `https://127.0.0.2:${port}/en/about`)
    expect(await smokeLine(origin)).toMatch(
      new RegExp(
        `^PASS  ${NAME}: GET http://127\\.0\\.0\\.2:\\d+/en/about -> ${status}, Location: https://127\\.0\\.0\\.2:\\d+/en/about$`
      )
    )
  })

  it.each([
    ['a page served over http', 200, undefined],
    ['a temporary redirect', 302, (port: number) => `https://127.0.0.2:${port}/en/about`],
    [
      'a redirect to another http address',
      301,
      (port: number) => `http://127.0.0.2:${port}/en/about/`,
    ],
    [
      'a redirect to the https home page instead of the page',
      301,
      (port: number) => `https://127.0.0.2:${port}/`,
    ],
  ])('fails %s, saying what it got', async (_, status, location) => {
    const line = await smokeLine(await site(status, location))
    expect(line).toMatch(
      new RegExp(
        `^FAIL  ${NAME}: .* -> ${status}, Location: .*; expected 301 or 308 to https://127\\.0\\.0\\.2:\\d+/en/about$`
      )
    )
  })

  it('is skipped, naming why, for a loopback base URL', async () => {
    const origin = (await site(200)).replace('https://127.0.0.2', 'http://127.0.0.1')
    expect(await smokeLine(origin)).toBe(
      `SKIP  ${NAME}: the base URL ${origin} is a loopback address, which stays on HTTP for local development`
    )
  })
})
