/// <reference types="node" />
/**
 * `npm run preview:link` as an operator runs it (scripts/ops/preview-link.mjs): the link it prints
 * is one the worker's own entry route (src/preview/enter.ts) accepts, for a page and for the report;
 * a bad command line exits 2 with why.
 */
import { describe, expect, it } from 'vitest'
import type { Bindings } from '../../src/env'
import { runScript } from '../support/run-script'

const SECRET = 'tooling-preview-secret'

function previewLink(
  args: string[],
  env: Record<string, string | undefined> = { PREVIEW_SECRET: SECRET }
) {
  return runScript('scripts/ops/preview-link.mjs', args, env)
}

/** The worker's answer to the link, from its own route, with no link revoked. */
async function enter(link: string, secret = SECRET): Promise<Response> {
  const { enter: route } = await import('../../src/preview/enter')
  const url = new URL(link)
  const env = {
    PREVIEW_SECRET: secret,
    CONTENT_CACHE: { get: async () => null },
  } as unknown as Bindings
  return route.request(`${url.origin}/enter${url.search}`, {}, env)
}

describe('npm run preview:link', () => {
  it('prints a link to the page, at the origin given, that the worker accepts', async () => {
    const run = await previewLink([
      '/en/about',
      '--origin',
      'https://www.erebuni.example',
      '--minutes',
      '5',
    ])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const link = run.stdout.trim()
    expect(link).toMatch(
      /^https:\/\/www\.erebuni\.example\/_preview\/enter\?path=%2Fen%2Fabout&exp=\d+&nonce=[\w-]{22}&sig=[\w-]{43}$/
    )
    const exp = Number(new URL(link).searchParams.get('exp'))
    expect(exp - Date.now() / 1000).toBeGreaterThan(4 * 60)
    expect(exp - Date.now() / 1000).toBeLessThanOrEqual(5 * 60)

    const answer = await enter(link)
    expect(answer.status).toBe(303)
    expect(answer.headers.get('Location')).toBe('/_preview/en/about')
    expect(answer.headers.get('Set-Cookie')).toMatch(/^site_preview=/)
    expect((await enter(link, 'another-secret')).status).toBe(403)
  })

  it('prints a link to the report page with --report', async () => {
    const run = await previewLink(['--report'])
    expect(run.status).toBe(0)
    const link = run.stdout.trim()
    expect(link).toMatch(/^http:\/\/localhost:8787\/_preview\/enter\?path=%2Freport&/)
    expect((await enter(link)).headers.get('Location')).toBe('/_preview/report')
  })

  it('exits 2 with why for a bad command line or no secret', async () => {
    for (const [args, env, says] of [
      [['/en/about'], { PREVIEW_SECRET: '' }, /PREVIEW_SECRET is not set/],
      [[], undefined, /one page path/],
      [['https://evil.example/'], undefined, /public address/],
      [['/en/about', '--minutes', '0'], undefined, /--minutes/],
      [['/en/about', '--origin', 'ftp://x'], undefined, /--origin/],
      [['/en/about', '--nope'], undefined, /nope/],
    ] as const) {
      const run = await previewLink([...args], env ?? { PREVIEW_SECRET: SECRET })
      expect(run.status, args.join(' ')).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr).toMatch(says)
    }
  })
})
