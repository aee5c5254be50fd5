/// <reference types="node" />
/**
 * scripts/ops/smoke.mjs, the post-deploy check, run as an operator runs it against a local `wrangler
 * dev` of the site (its backend the soak's fake one, scripts/lib/fake-backend.mjs): on its own, where
 * the checks of the cache in front must say SKIP, and behind a stand-in for Workers Cache
 * (tests/support/fake-front-cache.mjs) that is honest, or breaks one thing a deploy or the platform could.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, serverLogFile, startSite } from '../../scripts/lib/local-site.mjs'
import { startFakeBackend } from '../../scripts/lib/fake-backend.mjs'
import { startFakeFrontCache, type Mode } from '../support/fake-front-cache.mjs'

const SECRET = `smoke-${Math.random().toString(36).slice(2)}`
let site: Awaited<ReturnType<typeof startSite>>
let backend: Awaited<ReturnType<typeof startFakeBackend>>
let state: string
let proxies = 0

beforeAll(async () => {
  backend = await startFakeBackend()
  state = mkdtempSync(path.join(os.tmpdir(), 'smoke-state-'))
  site = await startSite({
    vars: { API_HOST: backend.origin, PUBLISH_SECRET: SECRET },
    persistTo: state,
    logFile: serverLogFile('smoke'),
  })
})

afterAll(async () => {
  await site?.stop()
  await backend?.close()
  if (state) rmSync(state, { recursive: true, force: true })
})

/** Runs `npm run smoke -- <origin>` as a child process: its exit code and its lines. */
function smoke(
  origin: string,
  secret?: string
): Promise<{ code: number | null; lines: string[]; output: string }> {
  const env = { ...process.env, PUBLISH_SECRET: secret ?? '' }
  const child = spawn(process.execPath, ['scripts/ops/smoke.mjs', origin], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  return new Promise((resolve) =>
    child.once('close', (code) => resolve({ code, lines: output.split('\n'), output }))
  )
}

/** The line of the check whose name starts with `name`, e.g. 'SKIP  page served by the cache in front'. */
function line(lines: string[], name: string): string {
  return lines.find((text) => text.slice(6).startsWith(name)) ?? `(no line for "${name}")`
}

async function behindFrontCache<T>(mode: Mode, run: (origin: string) => Promise<T>): Promise<T> {
  proxies += 1
  const proxy = await startFakeFrontCache(site.origin, mode, `192.0.2.${proxies}`)
  try {
    return await run(proxy.origin)
  } finally {
    await proxy.close()
  }
}

describe('npm run smoke against the local site (no cache in front)', () => {
  it('passes, and names the checks of the cache in front as skipped rather than passed', async () => {
    const { code, lines, output } = await smoke(site.origin, SECRET)
    expect(
      lines.filter((text) => text.startsWith('FAIL')),
      output
    ).toEqual([])
    expect(code, output).toBe(0)
    for (const page of [
      '/',
      '/about',
      '/en',
      '/en/contact-us',
      '/ru/enterprises',
      '/enterprises/1-arabkir-residence',
      '/ru/enterprises/1-arabkir-residence',
    ]) {
      expect(line(lines, `page ${page}:`)).toMatch(
        /^PASS .*: 200, lang (hy|en|ru), canonical http:\/\/127\.0\.0\.1:\d+\/.*hreflang hy en ru x-default/
      )
    }
    // The 12 pages of the navbar, and the first project's page in three languages.
    expect(lines.filter((text) => /^PASS {2}page \//.test(text))).toHaveLength(15)
    expect(line(lines, 'link preview image of /en/enterprises/1-arabkir-residence')).toMatch(
      /^PASS .*: 200 image\/jpeg/
    )
    expect(line(lines, 'sitemap.xml')).toMatch(/^PASS .*: ?200, 27 pages listed/)
    for (const platform of [
      'page served by the cache in front',
      'image served by the cache in front',
      'tag purge drops /en/about',
    ]) {
      expect(line(lines, platform)).toMatch(/^SKIP .*no cache in front of the worker here/)
    }
    expect(line(lines, 'image rendition as AVIF')).toMatch(/^PASS .*: 200 image\/avif/)
    expect(line(lines, 'image rendition cached')).toMatch(
      /^PASS .*the worker's rendition cache: hit/
    )
    expect(line(lines, '304 for a matching ETag')).toMatch(/^PASS .*-> 304, no body/)
    // Nothing purged, or only the repeat purge of content first stored one to two minutes before
    // (this site's first pages): which of the two depends on how long the run took to get here.
    expect(line(lines, 'publish hook, signed, nothing changed: purges nothing')).toMatch(
      /^PASS .*refreshed 9 payloads, changed \[\], purged \[(\]$|.+\]: all again, changed one to two minutes ago)/
    )
    expect(line(lines, 'publish hook refuses an unsigned call')).toMatch(/^PASS .*401/)
    expect(line(lines, 'contact refuses a cross-site post, POST /api/contact')).toMatch(
      /^PASS .*403/
    )
    expect(line(lines, 'unknown address')).toMatch(/^PASS .*404/)
    expect(line(lines, 'http:// redirects to https://')).toMatch(
      /^SKIP .*is a loopback address, which stays on HTTP for local development/
    )
    expect(lines.at(-2)).toMatch(
      /^smoke: \d+ passed, 4 skipped, 0 failed; \d+ requests \(budget 80\)$/
    )
  })
})

describe('npm run smoke behind a stand-in for Workers Cache', () => {
  it('passes every platform check when the cache honours Cloudflare-CDN-Cache-Control and tag purges', async () => {
    const { code, lines, output } = await behindFrontCache('honest', (origin) =>
      smoke(origin, SECRET)
    )
    // The stand-in is on loopback, where the site stays on HTTP (tests/tooling/smoke-https.test.ts checks that check).
    expect(
      lines.filter(
        (text) => /^(FAIL|SKIP)/.test(text) && !text.includes('http:// redirects to https://')
      ),
      output
    ).toEqual([])
    expect(code, output).toBe(0)
    expect(line(lines, 'page served by the cache in front')).toMatch(/^PASS .*Cf-Cache-Status HIT/)
    expect(line(lines, 'image served by the cache in front')).toMatch(/^PASS .*Cf-Cache-Status HIT/)
    expect(line(lines, 'tag purge drops /en/about')).toMatch(
      /^PASS .*before: Cf-Cache-Status HIT.* -> after: Cf-Cache-Status MISS/
    )
  })

  it('fails, saying Cloudflare-CDN-Cache-Control is not honoured, when the cache reads only Cache-Control', async () => {
    const { code, lines, output } = await behindFrontCache('cache-control-only', (origin) =>
      smoke(origin)
    )
    expect(code, output).toBe(1)
    expect(line(lines, 'page served by the cache in front')).toMatch(
      /^FAIL .*never a hit.*Cloudflare-CDN-Cache-Control not honoured/
    )
    expect(line(lines, 'publish hook, signed')).toMatch(/^SKIP .*PUBLISH_SECRET not given/)
  })

  it('fails when a tag purge leaves the page in the cache', async () => {
    const { code, lines, output } = await behindFrontCache('no-purge', (origin) =>
      smoke(origin, SECRET)
    )
    expect(code, output).toBe(1)
    expect(line(lines, 'tag purge drops /en/about')).toMatch(
      /^FAIL .*still served from the cache 10 s after the purge/
    )
    expect(
      lines.filter((text) => text.startsWith('FAIL')),
      output
    ).toHaveLength(1)
  })

  it('fails naming what a visitor would get: no Content-Security-Policy, and a 200 for an unknown page', async () => {
    const { code, lines, output } = await behindFrontCache('broken', (origin) => smoke(origin))
    expect(code, output).toBe(1)
    expect(line(lines, 'security headers on a page (/)')).toMatch(
      /^FAIL .*Content-Security-Policy: \(missing\)/
    )
    expect(line(lines, 'unknown address')).toMatch(/^FAIL .*\/en\/smoke-no-such-page-\w+: 200/)
  })
})

describe('npm run smoke, its arguments', () => {
  it('refuses an address that is not http(s), with its usage', async () => {
    const { code, output } = await smoke('ftp://example.test')
    expect(code).toBe(2)
    expect(output).toMatch(/^usage: npm run smoke -- <base URL/)
  })
})
