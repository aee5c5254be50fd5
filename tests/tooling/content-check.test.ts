/// <reference types="node" />
/**
 * `npm run content:check` as an operator runs it (scripts/ops/content-check.mjs), against the
 * soak's fake content backend (scripts/lib/fake-backend.mjs), which answers the reference seed with
 * the gaps an editor's CMS typically has.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DatabaseSync } from 'node:sqlite'
import { readdirSync } from 'node:fs'
import { ROOT, runScript } from '../support/run-script'
import { prepareLocalContent } from '../../scripts/ops/content-check/local-content.mjs'
import { readSeed } from '../../content-service/scripts/seed-sql.mjs'
import { startFakeBackend } from '../../scripts/lib/fake-backend.mjs'
import type { ContentReport } from '../../src/report'

type Backend = Awaited<ReturnType<typeof startFakeBackend>>
let backends: Backend[] = []
afterEach(async () => {
  await Promise.all(backends.map((backend) => backend.close()))
  backends = []
})

function contentCheck(args: string[], env: Record<string, string> = {}) {
  return runScript('scripts/ops/content-check.mjs', args, env)
}

/** The local content database under `state`, as `wrangler dev` keeps it. */
function contentDatabase(state: string, readOnly: boolean): DatabaseSync {
  const folder = path.join(state, 'v3/d1/miniflare-D1DatabaseObject')
  const file = readdirSync(folder).find(
    (name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite'
  )
  return new DatabaseSync(path.join(folder, file!), { readOnly })
}

function pagePayload(state: string, slug: string): string {
  const database = contentDatabase(state, true)
  try {
    const row = database.prepare('SELECT payload FROM pages WHERE slug = ?').get(slug)
    return String(row!.payload)
  } finally {
    database.close()
  }
}

/** An edit as an editor makes it in the local service: one field of a page's payload. */
function editPagePayload(state: string, slug: string, field: string, value: string): void {
  const database = contentDatabase(state, false)
  try {
    database
      .prepare('UPDATE pages SET payload = json_set(payload, ?, ?) WHERE slug = ?')
      .run(field, value, slug)
  } finally {
    database.close()
  }
}

/** The fake backend, its content lacking what the editor forgot. */
async function backendWithGaps() {
  const backend = await startFakeBackend()
  backends.push(backend)
  const { pages } = readSeed() as { pages: Record<string, Record<string, unknown>> }
  const home = pages.home!
  const enterprisesHome = home.enterprisesHome as Record<string, unknown>[]
  const enterprises = pages.enterprises!.enterprises as Record<string, unknown>[]
  backend.edit('about', {
    ru_titleMission: undefined,
    arm_subTitleMission: undefined,
    secondBanner: { img: '/images/banners/missing.jpg' },
    thirdImage: { ...(pages.about!.thirdImage as object), img: 'https://elsewhere.example/a.jpg' },
  })
  backend.edit('home', {
    ru_banner: undefined,
    enterprisesTitle: undefined,
    en_enterprisesTitle: undefined,
    ru_enterprisesTitle: undefined,
    arm_enterprisesTitle: undefined,
    enterprisesHome: [
      { ...enterprisesHome[0], btnLink: 'javascript:alert(1)' },
      ...enterprisesHome.slice(1),
    ],
  })
  backend.edit('contact-us', {
    phoneNumber: undefined,
    // Social links are optional: their absence is no gap.
    ...Object.fromEntries(
      ['facebook', 'instagram', 'linkedin', 'youtube'].map((name) => [name, undefined])
    ),
  })
  backend.edit('enterprises', {
    enterprises: [enterprises[0], { ...enterprises[1], id: 'two words' }, ...enterprises.slice(2)],
  })
  return backend
}

/** The gaps the issue names, as `page lng kind field`. */
const EXPECTED = [
  '/about ru fallback ru_titleMission',
  '/about hy fallback arm_subTitleMission',
  '/ ru fallback ru_banner',
  '/ hy dictionary-default arm_enterprisesTitle',
  '/ en dictionary-default enterprisesTitle',
  '/ ru dictionary-default ru_enterprisesTitle',
  '/contact-us * empty phoneNumber',
  '/enterprises * no-page enterprises[1].id',
  '/ * dropped-address enterprisesHome[0].btnLink',
  '/about * image-failed secondBanner.img',
  '/about * image-failed thirdImage.img',
]

describe('npm run content:check', () => {
  it('names each gap with its page, language and field in --json, and --check exits 1', async () => {
    const backend = await backendWithGaps()
    const { status, stdout, stderr } = await contentCheck([
      '--api',
      backend.origin,
      '--json',
      '--check',
    ])
    expect(stderr).toBe('')
    expect(status).toBe(1)
    const report = JSON.parse(stdout) as ContentReport
    expect(report.version).toBe(1)
    const lines = report.gaps.map((gap) => `${gap.page} ${gap.lng} ${gap.kind} ${gap.field}`)
    expect(lines).toEqual(expect.arrayContaining(EXPECTED))
    expect(report.gaps.find((gap) => gap.field === 'enterprisesHome[0].btnLink')!.detail).toMatch(
      /javascript:/
    )
    const image = (field: string) => report.gaps.find((gap) => gap.field === field)!.detail
    expect(image('secondBanner.img')).toMatch(
      /origin-not-found \(origin answered 404\): the bundled image is shown/
    )
    expect(image('thirdImage.img')).toMatch(
      /origin https:\/\/elsewhere\.example is not an allowed image origin/
    )
    expect(lines.filter((line) => /facebook|instagram|linkedin|youtube/.test(line))).toEqual([])
    expect(report.open).toBeGreaterThanOrEqual(EXPECTED.length - 3)
  })

  it('names the same gaps in the text report, one line each, and accepts the gaps an accept file lists', async () => {
    const backend = await backendWithGaps()
    const { status, stdout } = await contentCheck(['--api', backend.origin])
    expect(status).toBe(0)
    const about = stdout.slice(stdout.indexOf('\n/about '), stdout.indexOf('\n/enterprises '))
    expect(about).toMatch(
      /^ {2}GAP \[ru\] fallback get-about-page ru_titleMission: shown from titleMission \(English\); fix: fill ru_titleMission in get-about-page$/m
    )
    expect(about).toMatch(
      /^ {2}GAP \[hy\] fallback get-about-page arm_subTitleMission: shown from subTitleMission \(English\); fix: fill arm_subTitleMission in get-about-page$/m
    )
    expect(stdout).toMatch(
      /^ {2}GAP \[\*\] no-page get-enterprises-page enterprises\[1\]\.id: enterprises\[1\]: id "two words" cannot be part of an address/m
    )

    const acceptFile = path.join(mkdtempSync(path.join(tmpdir(), 'content-check-')), 'accept')
    writeFileSync(acceptFile, '# no phone number yet\n/contact-us * empty contact-us phoneNumber\n')
    const accepted = await contentCheck([
      '--api',
      backend.origin,
      '--check',
      '--accept',
      acceptFile,
    ])
    expect(accepted.status).toBe(1)
    expect(accepted.stdout).toMatch(
      /^ {2}accepted \[\*\] empty contact-us phoneNumber: empty: not shown; fix: fill phoneNumber in contact-us$/m
    )
  })

  it('delivers a report of more than 64 KB whole through a pipe', async () => {
    const backend = await startFakeBackend()
    backends.push(backend)
    const many = Array.from({ length: 150 }, (_, index) => ({
      id: index + 1,
      title: `Project ${index + 1}`,
      description: `<p onclick="x()">Project ${index + 1}<script>x()</script></p>`,
    }))
    backend.edit('enterprises', { enterprises: many })
    const json = await contentCheck(['--api', backend.origin, '--json'])
    expect(json.status).toBe(0)
    expect(json.stdout.length).toBeGreaterThan(64 * 1024)
    const report = JSON.parse(json.stdout) as ContentReport
    expect(report.gaps.map((gap) => gap.page)).toContain('/enterprises/150-project-150')
    const text = await contentCheck(['--api', backend.origin])
    expect(text.stdout.length).toBeGreaterThan(64 * 1024)
    expect(text.stdout).toMatch(/\d+ open gap\(s\) of \d+ listed\n$/)
  })

  it('keeps local content: seeds a state with no page, and leaves an edited one as it is', async () => {
    const state = mkdtempSync(path.join(tmpdir(), 'content-check-state-'))
    prepareLocalContent(ROOT, state)
    const about = () => JSON.parse(pagePayload(state, 'about')) as Record<string, unknown>
    expect(about().titleMission).toBeTruthy()
    editPagePayload(state, 'about', '$.titleMission', 'Edited locally')
    prepareLocalContent(ROOT, state)
    expect(about().titleMission).toBe('Edited locally')
    // Two wrangler runs (the migrations and a seed) on a busy two-core machine.
  }, 300_000)

  it('exits 2 with the reason when the backend delivers no payload at all', async () => {
    const backend = await startFakeBackend()
    backends.push(backend)
    backend.setMode('500')
    const { status, stdout, stderr } = await contentCheck(['--api', backend.origin, '--check'])
    expect(status).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(
      /^content:check: no report: the backend delivered none of 9 payloads \(get-home-page: HTTP 500\)/
    )
  })

  it('exits 2 with the reason for an environment whose API_HOST is empty, or a bad option', async () => {
    const production = await contentCheck(['--env', 'production'])
    expect(production.status).toBe(2)
    expect(production.stderr).toMatch(/\[env\.production\.vars\] API_HOST is empty.*pass --api/)
    const bad = await contentCheck(['--api', 'javascript:alert(1)'])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toMatch(/--api must be an http\(s\) origin/)
  })
})
