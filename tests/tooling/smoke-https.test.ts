/// <reference types="node" />
/**
 * The smoke's HTTPS check (scripts/smoke/https.mjs) as it meets a deployed site: `http://` of the base
 * URL must answer a permanent redirect to the same address over HTTPS, in one hop. A stand-in site on
 * 127.0.0.2 (loopback to the machine, but not an address the site or the check treat as local
 * development) answers the http:// request as each kind of site would.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createReport } from '../../scripts/smoke/report.mjs'
import { checkHttpsRedirect } from '../../scripts/smoke/https.mjs'

let server: Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

/** A plain-HTTP site on 127.0.0.2 answering every request with `status` and `location`; its https:// origin. */
async function site(status: number, location?: (port: number) => string): Promise<string> {
  server = createServer((request, response) => {
    const { port } = server!.address() as AddressInfo
    response.writeHead(status, location ? { Location: location(port) } : {}).end()
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.2', () => resolve()))
  return `https://127.0.0.2:${(server.address() as AddressInfo).port}`
}

async function check(origin: string) {
  const lines: string[] = []
  await checkHttpsRedirect(createReport((line) => lines.push(line)), origin, {}, '/en/about')
  return lines
}

describe('the smoke check that http:// redirects to https://', () => {
  it.each([301, 308])('passes a %i to the same address over https', async (status) => {
    const origin = await site(status, (port) => `https://127.0.0.2:${port}/en/about`)
    expect(await check(origin)).toEqual([expect.stringMatching(new RegExp(`^PASS  http:// redirects to https:// in one hop, /en/about: GET http://127.0.0.2:\\d+/en/about -> ${status}, Location: https://`))])
  })

  it.each([
    ['a page served over http', 200, undefined],
    ['a temporary redirect', 302, (port: number) => `https://127.0.0.2:${port}/en/about`],
    ['a redirect to another http address', 301, (port: number) => `http://127.0.0.2:${port}/en/about/`],
    ['a redirect to the https home page instead of the page', 301, (port: number) => `https://127.0.0.2:${port}/`],
  ])('fails %s, saying what it got', async (_, status, location) => {
    const lines = await check(await site(status, location))
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^FAIL .* -> ${status}, Location: .*; expected 301 or 308 to https://127\\.0\\.0\\.2:\\d+/en/about$`))])
  })

  it('is skipped, naming why, for a loopback base URL', async () => {
    expect(await check('http://127.0.0.1:8787')).toEqual(['SKIP  http:// redirects to https:// in one hop, /en/about: the base URL http://127.0.0.1:8787 is a loopback address, which stays on HTTP for local development'])
  })
})
