/// <reference types="node" />
/**
 * `npm run content:draft` as an operator runs it (scripts/ops/content-draft.mjs), against a
 * stand-in for a running reference service (`--api`): the draft it puts, the publish it asks for,
 * the editors' token it sends; a bad command line or file exits 2 with why, sending nothing.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runScript } from '../support/run-script'

type Received = { method: string; url: string; headers: IncomingHttpHeaders; body: string }

let server: Server | undefined
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

/** A service that answers every call `status` with a JSON body, recording the calls. */
async function service(status = 200) {
  const received: Received[] = []
  server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      received.push({ method: request.method!, url: request.url!, headers: request.headers, body })
      response.writeHead(status, { 'Content-Type': 'application/json' })
      response.end(JSON.stringify(status === 200 ? { payload: {} } : { message: 'refused' }))
    })
  })
  await new Promise<void>((listening) => server!.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as { port: number }
  return { origin: `http://127.0.0.1:${port}`, received }
}

function draftFile(content: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'draft-')), 'draft.json')
  writeFileSync(file, content)
  return file
}

const draft = (args: string[], token: string | undefined = 'editor-token') =>
  runScript('scripts/ops/content-draft.mjs', args, { EDITOR_TOKEN: token })

describe('npm run content:draft', () => {
  it('puts the file as the draft, then publishes it with --publish, with the editors\u2019 token', async () => {
    const { origin, received } = await service()
    const file = draftFile('{"firstBanner":{"titleBanner":"Draft"}}')

    const run = await draft(['get-about-page', file, '--publish', '--api', origin])

    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(received.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'PUT /api/erebuni/drafts/get-about-page',
      'POST /api/erebuni/drafts/get-about-page/publish',
    ])
    expect(JSON.parse(received[0]!.body)).toEqual({ firstBanner: { titleBanner: 'Draft' } })
    expect(received.every((call) => call.headers.authorization === 'Bearer editor-token')).toBe(
      true
    )
    expect(run.stdout).toMatch(/PUT \/api\/erebuni\/drafts\/get-about-page: 200/)
  })

  it('exits 1 with the service\u2019s answer when it refuses, and does not publish', async () => {
    const { origin, received } = await service(401)
    const run = await draft(['get-about-page', draftFile('{}'), '--publish', '--api', origin])
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/401 \{"message":"refused"\}/)
    expect(received).toHaveLength(1)
  })

  it('exits 2 with why, sending nothing, for a bad file, command line or no token', async () => {
    const { origin, received } = await service()
    for (const [args, token, says] of [
      [['get-about-page', draftFile('[1]'), '--api', origin], 'editor-token', /JSON object/],
      [['get-about-page', draftFile('{"a":'), '--api', origin], 'editor-token', /JSON/],
      [['get-about-page', '/no/such/file.json', '--api', origin], 'editor-token', /ENOENT/],
      [['get-about-page'], 'editor-token', /an endpoint and a JSON file/],
      [['get-about-page', draftFile('{}'), '--api', 'ftp://x'], 'editor-token', /--api/],
      [['get-about-page', draftFile('{}'), '--api', origin], '', /EDITOR_TOKEN is not set/],
    ] as const) {
      const run = await draft([...args], token)
      expect(run.status, args.join(' ')).toBe(2)
      expect(run.stderr).toMatch(says)
    }
    expect(received).toHaveLength(0)
  })
})
