/**
 * The contact form through a CMS outage (docs/decisions/0007-contact-outbox.md): a
 * visitor sends the form while the backend is down, sees the success notice, and once the backend
 * is back the message is in it, once.
 *
 * This needs a backend the test can take down, so it runs its own: the reference content service
 * alone under `wrangler dev` (its own D1 state, migrated and seeded here), behind a Node proxy that
 * answers 503 while `down`, and the site under a second `wrangler dev` with API_HOST pointing at
 * the proxy and the retry delays capped at 3 s (CONTACT_RETRY_MAX_DELAY_SECONDS), so the outbox's
 * schedule runs in seconds (about 45 s of retries before a message would be dead-lettered).
 */
import { execFile } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { ROOT, startSite } from '../../scripts/lib/local-site.mjs'
import { en } from '../../src/shared/i18n/en'
import { expect, gotoLoaded, test, type Page } from '../support/e2e/fixtures'
import { storedMessages } from '../support/e2e/stored-messages'

const run = promisify(execFile)
const WRANGLER = path.join(ROOT, 'node_modules/.bin/wrangler')
const STATE = path.join(ROOT, '.wrangler/state-e2e-outage')
const wranglerEnv = { ...process.env, WRANGLER_SEND_METRICS: 'false' }
/** The English form's labels and button, from the seeded content. */
const seed = JSON.parse(
  readFileSync(path.join(ROOT, 'content-service/seed/contact-us.json'), 'utf8')
) as Record<string, string>
const labels = { name: seed.nameLabel!, email: seed.emailLabel!, message: seed.messageLabel! }
const sendText = seed.sendButtonText!

/** The reference service's D1 in STATE: migrated, then seeded with the bundled content. */
async function prepareContentDatabase(): Promise<void> {
  rmSync(STATE, { recursive: true, force: true })
  const config = ['-c', 'content-service/wrangler.toml', '--local', '--persist-to', STATE]
  await run(WRANGLER, ['d1', 'migrations', 'apply', 'CONTENT_DB', ...config], {
    cwd: ROOT,
    env: wranglerEnv,
  })
  await run(
    process.execPath,
    ['content-service/scripts/seed.mjs', '--local', '--persist-to', STATE],
    { cwd: ROOT, env: wranglerEnv }
  )
}

/** A proxy to `target` that answers 503, as a CMS in maintenance does, while `down`. */
async function startOutageProxy(target: string) {
  const state = { down: false, refused: 0 }
  const server: Server = createServer(async (request, response) => {
    if (state.down) {
      state.refused += 1
      response
        .writeHead(503, { 'Content-Type': 'application/json' })
        .end('{"message":"Service Unavailable"}')
      return
    }
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        ([name]) => !['host', 'connection', 'content-length'].includes(name)
      )
    )
    try {
      const answer = await fetch(`${target}${request.url}`, {
        method: request.method,
        headers: headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      })
      response
        .writeHead(answer.status, {
          'Content-Type': answer.headers.get('Content-Type') ?? 'application/json',
        })
        .end(Buffer.from(await answer.arrayBuffer()))
    } catch {
      response.writeHead(502).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return Object.assign(state, {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  })
}

async function waitFor<T>(read: () => T, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms
  let value = read()
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    value = read()
  }
  return value
}

function field(page: Page, label: string) {
  return page.getByRole('textbox', { name: label, exact: true })
}

test.describe('the contact form during a CMS outage', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 })
  let service: Awaited<ReturnType<typeof startSite>> | undefined
  let site: Awaited<ReturnType<typeof startSite>> | undefined
  let proxy: Awaited<ReturnType<typeof startOutageProxy>> | undefined

  test.beforeAll(async () => {
    test.setTimeout(360_000)
    await prepareContentDatabase()
    service = await startSite({
      configs: ['content-service/wrangler.toml'],
      readyPath: '/api/erebuni/navbar-data',
      persistTo: STATE,
      logFile: path.join(ROOT, 'tests/e2e/test-results/outage-content-service.log'),
    })
    proxy = await startOutageProxy(service.origin)
    site = await startSite({
      configs: ['wrangler.toml'],
      vars: { API_HOST: proxy.origin, CONTACT_RETRY_MAX_DELAY_SECONDS: '3' },
      persistTo: path.join(ROOT, '.wrangler/state-e2e-outage-site'),
      logFile: path.join(ROOT, 'tests/e2e/test-results/outage-site.log'),
    })
  })

  test.afterAll(async () => {
    if (proxy) proxy.down = false
    await site?.stop()
    await proxy?.close()
    await service?.stop()
  })

  test('sends the form while the backend is down, shows success, and the message is in the backend once after it recovers', async ({
    browser,
  }) => {
    const run = `${process.pid}-${Date.now()}`
    const island = {
      name: 'Ani Sargsyan',
      email: 'ani.outage@example.com',
      comments: `Outage island ${run}`,
    }
    const plain = {
      name: 'Aram Petrosyan',
      email: 'aram.outage@example.com',
      comments: `Outage plain form ${run}`,
    }

    const context = await browser.newContext({
      baseURL: site!.origin,
      serviceWorkers: 'block',
      extraHTTPHeaders: { 'CF-Connecting-IP': `outage-${run}` },
    })
    const page = await context.newPage()
    // The page is cached while the backend is up; then the backend goes down.
    await gotoLoaded(page, '/en/contact-us')
    await expect(field(page, labels.name)).toBeVisible()
    proxy!.down = true

    await field(page, labels.name).fill(island.name)
    await field(page, labels.email).fill(island.email)
    await field(page, labels.message).fill(island.comments)
    const [answer] = await Promise.all([
      page.waitForResponse(
        (response) =>
          response.url().endsWith('/api/contact') && response.request().method() === 'POST'
      ),
      page.getByRole('button', { name: sendText }).click(),
    ])
    expect(answer.status()).toBe(200)
    await expect(page.getByText(en.contact.success, { exact: true }).first()).toBeVisible()
    await expect(field(page, labels.message)).toHaveValue('')

    // The plain form, JavaScript off, during the same outage.
    const noJs = await browser.newContext({
      baseURL: site!.origin,
      javaScriptEnabled: false,
      extraHTTPHeaders: { 'CF-Connecting-IP': `outage-plain-${run}` },
    })
    const plainPage = await noJs.newPage()
    await plainPage.goto('/en/contact-us')
    await field(plainPage, labels.name).fill(plain.name)
    await field(plainPage, labels.email).fill(plain.email)
    await field(plainPage, labels.message).fill(plain.comments)
    await plainPage.getByRole('button', { name: sendText }).click()
    await expect(plainPage).toHaveURL('/en/contact-us?sent=1')
    await expect(
      plainPage.getByRole('status').filter({ hasText: en.contact.success })
    ).toBeVisible()

    expect(proxy!.refused).toBeGreaterThanOrEqual(2)
    expect(storedMessages(STATE, island.comments)).toEqual([])

    proxy!.down = false
    for (const message of [island, plain]) {
      const stored = await waitFor(
        () => storedMessages(STATE, message.comments),
        (rows) => rows.length > 0,
        60_000
      )
      expect(stored).toEqual([{ ...message, idempotency_key: expect.any(String) }])
    }
    // Retries still under way by now find the key stored: still one of each.
    await new Promise((resolve) => setTimeout(resolve, 4_000))
    expect(storedMessages(STATE, island.comments)).toHaveLength(1)
    expect(storedMessages(STATE, plain.comments)).toHaveLength(1)
    await noJs.close()
    await context.close()
  })
})
