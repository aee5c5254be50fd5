/// <reference types="node" />
/**
 * `npm run contact:resend` as an operator runs it (scripts/ops/resend-contact.mjs): it signs its call
 * as the site's resend route checks it (the publish hook's scheme, verified here by the worker's
 * own verifyPublishCall), names the ids given or none, and says how it went.
 */
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { verifyPublishCall } from '../../src/routes/publish-signature'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const SECRET = 'operator-secret'
const memoryKv = () => {
  const keys = new Map<string, string>()
  return {
    get: async (key: string) => keys.get(key) ?? null,
    put: async (key: string, value: string) => void keys.set(key, value),
  } as unknown as KVNamespace
}

let close: (() => void) | undefined
afterEach(() => close?.())

/** A stand-in site: checks the signature like the worker and answers `report` (or 401). */
async function fakeSite(report: unknown) {
  const calls: { path: string; body: string; verdict: string }[] = []
  const server = createServer(async (request, response) => {
    let body = ''
    for await (const chunk of request) body += chunk
    const verdict = await verifyPublishCall({
      secret: SECRET,
      body,
      timestamp: request.headers['x-publish-timestamp'] as string | undefined,
      signature: request.headers['x-publish-signature'] as string | undefined,
      kv: memoryKv(),
    })
    calls.push({ path: request.url ?? '', body, verdict: verdict.ok ? 'ok' : verdict.reason })
    response
      .writeHead(verdict.ok ? 200 : 401, { 'Content-Type': 'application/json' })
      .end(JSON.stringify(verdict.ok ? report : { error: 'signature wrong' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  close = () => server.close()
  return { origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`, calls }
}

function resend(args: string[], secret: string | undefined) {
  return new Promise<{ status: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['scripts/ops/resend-contact.mjs', ...args], {
      cwd: ROOT,
      env: { ...process.env, PUBLISH_SECRET: secret ?? '' },
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('close', (status) => resolve({ status, output }))
  })
}

describe('npm run contact:resend', () => {
  it('sends a signed call for every dead letter and prints what was resent', async () => {
    const site = await fakeSite({ resent: ['a', 'b'], failed: [], missing: [] })
    const { status, output } = await resend([site.origin], SECRET)
    expect(site.calls).toEqual([{ path: '/api/contact/resend', body: '{}', verdict: 'ok' }])
    expect(output).toContain('resent 2, failed 0, not found 0')
    expect(status).toBe(0)
  })

  it('names the ids given, and fails when some could not be queued', async () => {
    const site = await fakeSite({ resent: [], failed: ['a'], missing: ['b'] })
    const { status, output } = await resend([site.origin, 'a', 'b'], SECRET)
    expect(site.calls[0]?.body).toBe('{"ids":["a","b"]}')
    expect(output).toContain('resent 0, failed 1, not found 1')
    expect(status).toBe(1)
  })

  it('fails when the site refuses the signature, and without a secret sends nothing', async () => {
    const site = await fakeSite({})
    expect((await resend([site.origin], 'another-secret')).status).toBe(1)
    const { status, output } = await resend([site.origin], undefined)
    expect(output).toContain('PUBLISH_SECRET is not set')
    expect(status).toBe(2)
    expect(site.calls).toHaveLength(1)
  })
})
