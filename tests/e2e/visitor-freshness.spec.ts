/**
 * The browser half of the freshness contract (docs/decisions/0017-browser-and-edge-cache-headers.md),
 * in every engine: a visitor who saw a page, left, and comes back after an editor changed it sees
 * the change on the second visit. Browsers read only `Cache-Control: max-age=0, must-revalidate`
 * (stale-while-revalidate is for the edge alone), so the second visit asks the site, which answers
 * the new page rather than a 304.
 *
 * The site runs on its own `wrangler dev` against the soak's fake CMS (scripts/lib/fake-backend.mjs),
 * which an editor can change, with a publish hook secret, so the change is live at once.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ROOT, startSite } from '../../scripts/lib/local-site.mjs'
import { signedJsonHeaders } from '../../scripts/lib/publish-signing.mjs'
import { startFakeBackend } from '../../scripts/lib/fake-backend.mjs'
import { expect, test } from '../support/e2e/engines/engine-fixtures'

const SECRET = `freshness-e2e-${process.pid}-${Date.now()}`

/** The home page's services heading, as the visitor sees it. */
function servicesTitle(): string {
  return document.querySelector('#services h2')?.textContent?.trim() ?? '(no services heading)'
}

test.describe('a page edited between two visits', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 })
  let backend: Awaited<ReturnType<typeof startFakeBackend>> | undefined
  let site: Awaited<ReturnType<typeof startSite>> | undefined
  let state: string | undefined

  test.beforeAll(async () => {
    test.setTimeout(240_000)
    backend = await startFakeBackend()
    state = mkdtempSync(path.join(os.tmpdir(), 'freshness-e2e-'))
    site = await startSite({
      vars: { API_HOST: backend.origin, PUBLISH_SECRET: SECRET },
      persistTo: state,
      logFile: path.join(ROOT, `tests/e2e/test-results/freshness-${process.pid}.log`),
    })
  })

  test.afterAll(async () => {
    await site?.stop()
    await backend?.close()
    if (state) rmSync(state, { recursive: true, force: true })
  })

  /** The editor's change made live: the CMS's publish hook, signed as the CMS signs it. */
  async function publishHome(): Promise<void> {
    const body = JSON.stringify({ payloads: ['get-home-page'] })
    const hook = await fetch(`${site!.origin}/api/publish`, {
      method: 'POST',
      headers: signedJsonHeaders(SECRET, body),
      body,
      signal: AbortSignal.timeout(20_000),
    })
    expect(hook.status, await hook.text()).toBe(200)
  }

  test('shows the new text on the second visit', async ({ visitors }) => {
    const visitor = await visitors(site!.origin)
    try {
      expect(await visitor.open('/en')).toBe(200)
      const before = await visitor.run(servicesTitle, null)
      expect(before).not.toBe('(no services heading)')

      // The visitor leaves the site; an editor changes the page and publishes.
      await visitor.open('about:blank')
      const after = `Services edited ${Date.now()}`
      backend!.edit('home', { servicesTitle: after })
      await publishHome()

      // The visitor comes back to the same address.
      expect(await visitor.open('/en')).toBe(200)
      expect(
        await visitor.run(servicesTitle, null),
        `${visitor.name}: the second visit shows the edit`
      ).toBe(after)
      expect(visitor.problems.take()).toEqual([])
    } finally {
      await visitor.close()
    }
  })
})
