/// <reference types="node" />
/**
 * `npm run vitals` as an operator runs it (scripts/ops/vitals.mjs), against a fake Analytics Engine
 * SQL API (tests/support/fake-analytics-sql.mjs) that runs its queries on sampled fixture rows
 * (tests/support/vitals-fixtures.mjs). Its figures are checked against a weighted percentile
 * computed here another way: each reading repeated as many times as its sample interval says.
 */
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ROOT, runScript } from '../support/run-script'
import { startFakeSqlApi } from '../support/fake-analytics-sql.mjs'
import { fixtureRows, HOSTILE_PAGES, VERSIONS } from '../support/vitals-fixtures.mjs'

const DAY_MS = 86_400_000

type Row = Record<string, string | number | Date>
type Fake = Awaited<ReturnType<typeof startFakeSqlApi>>

let fakes: Fake[] = []
afterEach(async () => {
  await Promise.all(fakes.map((fake) => fake.close()))
  fakes = []
})

async function fake(options: Parameters<typeof startFakeSqlApi>[0]) {
  const started = await startFakeSqlApi(options)
  fakes.push(started)
  return started
}

function vitals(args: string[], env: Record<string, string | undefined>) {
  return runScript('scripts/ops/vitals.mjs', args, env)
}

const envOf = (api: Fake) => ({
  CLOUDFLARE_API_BASE_URL: api.baseUrl,
  CLOUDFLARE_ACCOUNT_ID: api.accountId,
  CLOUDFLARE_API_TOKEN: api.token,
})

/**
 * The 75th percentile of weighted readings, by expansion: each value repeated `weight` times,
 * sorted, and the value at rank ceil(0.75 n) (the nearest-rank definition).
 */
function expandedP75(readings: { value: number; weight: number }[]): number {
  const expanded = readings.flatMap(({ value, weight }) => Array<number>(weight).fill(value))
  expanded.sort((a, b) => a - b)
  return expanded[Math.ceil(0.75 * expanded.length) - 1]!
}

function recent(rows: Row[], days: number, now: number) {
  return rows.filter((row) => now - (row.timestamp as Date).getTime() < days * DAY_MS)
}

function readings(rows: Row[], match: (row: Row) => boolean) {
  return rows
    .filter((row) => row.blob1 === 'vital' && match(row))
    .map((row) => ({ value: row.double1 as number, weight: row._sample_interval as number }))
}

const total = (list: { weight: number }[]) => list.reduce((sum, { weight }) => sum + weight, 0)

type Cell = { device: string; n: number; enough: boolean; p75?: number; verdict?: string }
type Report = {
  verdict: { metric: string; devices: Cell[] }[]
  worstPages: { page: string; device: string; n: number; poor: number }[]
  deploys: {
    latest: { version: string; metrics: Record<string, { n: number; p75?: number }> }
    previous: { version: string; metrics: Record<string, { n: number; p75?: number }> }
  }
  serverTiming: { cache: string; n: number; ttfbP75?: number; serverP75?: number | null }[]
  clientErrors: { message: string; source: string; n: number }[]
  messages: {
    page: string
    project: string
    messages: number
    pageViews: number
    enough: boolean
    perView?: number
    projectPageViews?: number
    projectEnough?: boolean
    perProjectPageView?: number
  }[]
  check: { failures: { metric: string; device: string }[] }
}

// A busy machine starts each run of the command in a second or more, so a test that runs it a few
// times gets a deadline of its own.
describe('npm run vitals', { timeout: 180_000 }, () => {
  it('prints every section, each figure weighted by _sample_interval as an independent computation finds it', async () => {
    const now = Date.now()
    const rows = fixtureRows('good', new Date(now))
    const api = await fake({ datasets: { erebuni_vitals: rows } })
    const text = await vitals(['--env', 'production'], envOf(api))
    expect(text.stderr).toBe('')
    expect(text.status).toBe(0)
    for (const heading of [
      'Site verdict',
      'Worst pages',
      'Deploys',
      'Server timing',
      'Top client errors',
      'Messages',
    ])
      expect(text.stdout).toContain(heading)
    // Tablets sent too few readings for a figure.
    expect(text.stdout).toMatch(/LCP\s+tablet\s+not enough data/)

    const json = await vitals(['--env', 'production', '--json'], envOf(api))
    expect(json.status).toBe(0)
    const report = JSON.parse(json.stdout) as Report
    const week = recent(rows, 7, now)
    for (const { metric, devices } of report.verdict) {
      for (const cell of devices) {
        const expected = readings(
          week,
          (row) => row.blob2 === metric && (cell.device === 'all' || row.blob8 === cell.device)
        )
        expect(cell.n, `${metric} ${cell.device}`).toBe(total(expected))
        expect(cell.enough).toBe(total(expected) >= 50)
        if (cell.enough) expect(cell.p75, `${metric} ${cell.device}`).toBe(expandedP75(expected))
        else expect(cell.p75).toBeUndefined()
      }
    }
    // The old, heavy readings stay out of a 7-day report.
    expect(report.verdict.find((row) => row.metric === 'LCP')!.devices[0]!.n).toBeLessThan(1000)

    for (const side of ['latest', 'previous'] as const) {
      const deploy = report.deploys[side]
      expect(deploy.version).toBe(VERSIONS[side])
      const lcp = readings(week, (row) => row.blob2 === 'LCP' && row.blob9 === VERSIONS[side])
      expect(deploy.metrics.LCP!.n).toBe(total(lcp))
      expect(deploy.metrics.LCP!.p75).toBe(expandedP75(lcp))
    }

    const edge = report.serverTiming.find((row) => row.cache === 'edge')!
    const edgeTtfb = readings(week, (row) => row.blob2 === 'TTFB' && row.blob10 === 'edge')
    expect(edge.n).toBe(total(edgeTtfb))
    expect(edge.ttfbP75).toBe(expandedP75(edgeTtfb))
    expect(edge.serverP75).toBeNull()
    const miss = report.serverTiming.find((row) => row.cache === 'miss')!
    const missServer = week
      .filter((row) => row.blob2 === 'TTFB' && row.blob10 === 'miss')
      .map((row) => ({ value: row.double2 as number, weight: row._sample_interval as number }))
    expect(miss.serverP75).toBe(expandedP75(missServer))

    expect(report.clientErrors.map((error) => [error.n, error.message])).toEqual([
      [30, 'TypeError: x is undefined'],
      [12, 'chunk-load failure: island "carousel"'],
      [4, "\u001b[31mred'); DROP TABLE erebuni_vitals; --"],
    ])
  })

  it("counts messages by page and project, weighted, beside the page views of the page whose form sent them and of the project's own page, every slug of its id summed", async () => {
    const now = Date.now()
    const rows = fixtureRows('good', new Date(now))
    const api = await fake({ datasets: { erebuni_vitals: rows } })
    const week = recent(rows, 7, now)
    const messagesOf = (page: string, project: string, country?: string) =>
      week
        .filter(
          (row) =>
            row.blob1 === 'message' &&
            row.blob2 === page &&
            row.blob4 === project &&
            (!country || row.blob6 === country)
        )
        .reduce((sum, row) => sum + (row._sample_interval as number), 0)
    const viewsOf = (page: string, country?: string) =>
      total(
        readings(
          week,
          (row) => row.blob2 === 'TTFB' && row.blob4 === page && (!country || row.blob7 === country)
        )
      )

    const json = await vitals(['--env', 'production', '--json'], envOf(api))
    expect(json.status).toBe(0)
    const { messages } = JSON.parse(json.stdout) as Report
    const contactViews = viewsOf('/contact-us')
    expect(contactViews).toBeGreaterThanOrEqual(50)
    expect(messages).toEqual([
      {
        page: '/contact-us',
        project: '1',
        messages: messagesOf('/contact-us', '1'),
        pageViews: contactViews,
        enough: true,
        perView: messagesOf('/contact-us', '1') / contactViews,
        projectPageViews: 70,
        projectEnough: true,
        perProjectPageView: messagesOf('/contact-us', '1') / 70,
      },
      {
        page: '/contact-us',
        project: '',
        messages: messagesOf('/contact-us', ''),
        pageViews: contactViews,
        enough: true,
        perView: messagesOf('/contact-us', '') / contactViews,
      },
      {
        page: '/no-views',
        project: '2',
        messages: 3,
        pageViews: 0,
        enough: false,
        projectPageViews: 0,
        projectEnough: false,
      },
      {
        page: '/contact-us',
        project: '5',
        messages: messagesOf('/contact-us', '5'),
        pageViews: contactViews,
        enough: true,
        perView: messagesOf('/contact-us', '5') / contactViews,
        projectPageViews: 30,
        projectEnough: false,
      },
    ])
    // The weights count: three rows about project 1 are 16 messages; the old, heavy one is left out.
    expect(messages[0]!.messages).toBe(16)

    const text = await vitals(['--env', 'production'], envOf(api))
    const percent = ((16 / contactViews) * 100).toFixed(1)
    expect(text.stdout).toMatch(
      new RegExp(`/contact-us\\s+1\\s+16\\s+${contactViews}\\s+${percent.replace('.', '\\.')}%`)
    )
    expect(text.stdout).toMatch(/\/no-views\s+2\s+3\s+0\s+not enough data\s+0\s+not enough data/)
    // Project 1's page: 70 views over two slugs (not project 10's), 16 messages, 22.9% per view.
    expect(text.stdout).toMatch(/\/contact-us\s+1\s+16\s+\d+\s+[\d.]+%\s+70\s+22\.9%/)
    expect(text.stdout).toMatch(
      new RegExp(
        `/contact-us\\s+5\\s+${messagesOf('/contact-us', '5')}\\s+\\d+\\s+[\\d.]+%\\s+30\\s+not enough data`
      )
    )
    // A message about no project has no project page.
    expect(text.stdout).toMatch(/\/contact-us\s+-\s+\d+\s+\d+\s+[\d.]+%\s+-\s+-/)

    const armenia = await vitals(['--env', 'production', '--country', 'AM', '--json'], envOf(api))
    const inArmenia = (JSON.parse(armenia.stdout) as Report).messages
    expect(inArmenia.find((row) => row.project === '1')).toMatchObject({
      messages: messagesOf('/contact-us', '1', 'AM'),
      pageViews: viewsOf('/contact-us', 'AM'),
      projectPageViews: 20,
      projectEnough: false,
    })
  })

  it('--check passes when every site-level p75 with enough data is good', async () => {
    const good = await fake({ datasets: { erebuni_vitals: fixtureRows('good') } })
    const passed = await vitals(['--env', 'production', '--check'], envOf(good))
    expect(passed.stdout).toContain('check: ok')
    expect(passed.status).toBe(0)
  })

  it('--check fails (exit 1) on a poor LCP p75, naming it, in text and in JSON', async () => {
    const poor = await fake({ datasets: { erebuni_vitals: fixtureRows('poor-lcp') } })
    const failed = await vitals(['--env', 'production', '--check'], envOf(poor))
    expect(failed.stdout).toMatch(/check: FAIL, LCP p75 on all is [\d.]+ s \(poor\)/)
    expect(failed.status).toBe(1)
    const json = await vitals(['--env', 'production', '--check', '--json'], envOf(poor))
    expect(json.status).toBe(1)
    const { check } = JSON.parse(json.stdout) as Report
    expect(new Set(check.failures.map((failure) => failure.metric))).toEqual(new Set(['LCP']))
  })

  it('without --check, a poor report still exits 0: it is a reading, not a verdict', async () => {
    const poor = await fake({ datasets: { erebuni_vitals: fixtureRows('poor-lcp') } })
    const { status, stdout } = await vitals(['--env', 'production'], envOf(poor))
    expect(stdout).toMatch(/LCP\s+all\s+[\d.]+ s\s+\d+\s+.*poor/)
    expect(status).toBe(0)
  })

  it('--country AM counts only visitors in Armenia; --days counts back that many days', async () => {
    const now = Date.now()
    const rows = fixtureRows('good', new Date(now))
    const api = await fake({ datasets: { erebuni_vitals: rows } })
    const { stdout, status } = await vitals(
      ['--env', 'production', '--country', 'AM', '--days', '30', '--json'],
      envOf(api)
    )
    expect(status).toBe(0)
    const report = JSON.parse(stdout) as Report
    const month = recent(rows, 30, now)
    const ttfb = readings(month, (row) => row.blob2 === 'TTFB' && row.blob7 === 'AM')
    const all = report.verdict.find((row) => row.metric === 'TTFB')!.devices[0]!
    expect(all.n).toBe(total(ttfb))
    // 30 days take in the old readings, from Armenia.
    expect(all.n).toBeGreaterThan(1000)
    expect(all.p75).toBe(expandedP75(ttfb))
    for (const sql of api.queries) expect(sql).toContain("INTERVAL '30' DAY")
    expect(api.queries.every((sql) => sql.includes("= 'AM'"))).toBe(true)
  })

  it.each([
    ['a country in lower case', ['--country', 'am'], 'country must be two capital letters'],
    ['a country carrying SQL', ['--country', "AM' OR '1'='1"], 'country must be two capital'],
    ['days out of range', ['--days', '400'], 'days must be a whole number from 1 to 90'],
    ['an unknown environment', ['--env', 'dev'], '--env must be production or staging'],
    ['an unknown option', ['--page', '/'], "Unknown option '--page'"],
  ])('refuses %s with a clear error and sends no query', async (_, args, message) => {
    const api = await fake({ datasets: { erebuni_vitals: fixtureRows('good') } })
    const { status, stderr } = await vitals(args, envOf(api))
    expect(stderr).toContain(message)
    expect(status).toBe(2)
    expect(api.queries).toEqual([])
  })

  it.each(['staging', 'production'])(
    "reads the %s dataset from wrangler.toml, the one wrangler's own reading of it binds",
    async (environment) => {
      const { unstable_readConfig } = await import('wrangler')
      const config = unstable_readConfig(
        { config: path.join(ROOT, 'wrangler.toml'), env: environment },
        { hideWarnings: true }
      )
      const dataset = config.analytics_engine_datasets.find(
        (entry: { binding: string; dataset?: string }) => entry.binding === 'VITALS'
      )?.dataset
      expect(dataset).toMatch(/^erebuni_vitals/)
      const api = await fake({ datasets: { [dataset!]: fixtureRows('good') } })
      const { status } = await vitals(['--env', environment], envOf(api))
      expect(status).toBe(0)
      expect(api.queries.length).toBeGreaterThan(0)
      expect(api.queries.every((sql) => sql.includes(` FROM ${dataset} `))).toBe(true)
    }
  )

  it('builds the same queries whatever the rows hold: a page written by a hostile beacon is a value, never SQL', async () => {
    const rows = fixtureRows('good')
    const hostile = await fake({ datasets: { erebuni_vitals: rows } })
    const plain = await fake({
      datasets: {
        erebuni_vitals: rows.filter((row) => !HOSTILE_PAGES.includes(row.blob4 as string)),
      },
    })
    const report = JSON.parse((await vitals(['--json'], envOf(hostile))).stdout) as Report
    await vitals(['--json'], envOf(plain))
    expect([...hostile.queries].sort()).toEqual([...plain.queries].sort())
    // The hostile pages come back as the strings they are.
    expect(report.worstPages.map((row) => row.page)).toEqual(expect.arrayContaining(HOSTILE_PAGES))
  })

  it('prints no control character a row holds: an escape sequence in an error message shows escaped', async () => {
    const api = await fake({ datasets: { erebuni_vitals: fixtureRows('good') } })
    const text = await vitals([], envOf(api))
    expect(text.status).toBe(0)
    expect(text.stdout).not.toContain('\u001b')
    expect(text.stdout).toContain("\\u001b[31mred'); DROP TABLE erebuni_vitals; --")
  })

  it('waits out 429 and 503 as Retry-After says, then reports', async () => {
    const api = await fake({
      datasets: { erebuni_vitals: fixtureRows('good') },
      failures: [
        { status: 429, headers: { 'Retry-After': '1' } },
        { status: 503, headers: { 'Retry-After': '1' } },
      ],
    })
    const { status, stdout } = await vitals(['--check'], envOf(api))
    expect(stdout).toContain('check: ok')
    expect(status).toBe(0)
    // Eight queries, two of them sent twice.
    expect(api.queries).toHaveLength(10)
  })

  it('gives up after four busy answers to one query, saying so', async () => {
    const busy = { status: 503, headers: { 'Retry-After': '0' } }
    const api = await fake({
      datasets: { erebuni_vitals: fixtureRows('good') },
      failures: Array(32).fill(busy),
    })
    const { status, stderr } = await vitals([], envOf(api))
    expect(stderr).toContain('still busy (HTTP 503) after 4 attempts')
    expect(status).toBe(2)
  })

  it('says what a refused token needs, and names missing credentials', async () => {
    const api = await fake({ datasets: { erebuni_vitals: [] } })
    const refused = await vitals([], { ...envOf(api), CLOUDFLARE_API_TOKEN: 'wrong' })
    expect(refused.stderr).toContain(
      'refused the token (HTTP 401: Authentication error): CLOUDFLARE_API_TOKEN needs the Account Analytics Read permission'
    )
    expect(refused.status).toBe(2)
    const missing = await vitals([], {
      ...envOf(api),
      CLOUDFLARE_API_TOKEN: '',
      CLOUDFLARE_ACCOUNT_ID: undefined,
    })
    expect(missing.stderr).toContain('set CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN')
    expect(missing.status).toBe(2)
  })

  it.each([
    ['JSON without rows', '{"data":"nope"}', 'has no meta and data rows'],
    ['not JSON', '<html>gateway</html>', 'something that is not JSON'],
  ])('fails clearly on an answer that is %s', async (_, body, message) => {
    const api = await fake({
      datasets: { erebuni_vitals: fixtureRows('good') },
      failures: [{ status: 200, body }],
    })
    const { status, stderr } = await vitals([], envOf(api))
    expect(stderr).toContain(message)
    expect(status).toBe(2)
  })
})
