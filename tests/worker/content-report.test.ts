/**
 * The content report (src/content/report/): what each page's visitors miss, per language, found
 * by the site's own picker, address parser, sanitizer and project rules; and the publish hook's
 * answer, which lists the gaps of the payloads it just loaded.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import worker from '../../src/index'
import type { Bindings } from '../../src/env'
import {
  buildContentReport,
  judgeOriginal,
  loadPayloads,
  refusedSource,
  type ContentReport,
  type Gap,
  type PayloadLoad,
} from '../../src/content/report'
import { findDictionaryGaps } from '../../src/content/report/dictionary-gaps'
import { dictionaries } from '../../src/shared/i18n'
import { payloadSchema } from '../../src/content/payload-catalogue'
import { fakeBackend, json, samplePayloads, text } from '../support/worker/fake-backend'
import { signedNow } from '../support/worker/signed-call'
import { contextWithWorkersCache } from '../support/worker/freshness'
import { waitOnExecutionContext } from 'cloudflare:test'

const SECRET = 'content-report-secret'
let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => backend?.restore())

/** The gaps of `report` as `page lng kind field` lines, the way an editor scans them. */
const linesOf = (report: ContentReport) =>
  report.gaps.map((gap) => `${gap.page} ${gap.lng} ${gap.kind} ${gap.field}`)

/** A report of payloads given as the CMS would send them, parsed by the site's schemas. */
async function reportOf(payloads: Record<string, Record<string, unknown>>) {
  const loads = new Map<string, PayloadLoad>()
  for (const [endpoint, raw] of Object.entries(payloads)) {
    const schema = await payloadSchema(endpoint as 'get-home-page')
    loads.set(`payload:${endpoint}`, { raw, payload: schema.parse(raw) })
  }
  return buildContentReport(loads, { backend: 'test' })
}

describe('the content report', () => {
  it('shows every page of the bundled reference content complete in every language, listing only its deliberate gaps', async () => {
    const report = buildContentReport(await loadPayloads({ ...env, API_HOST: '' }), {
      backend: 'bundled',
    })
    const pages = new Set(report.completeness.map((row) => row.page))
    expect([...pages]).toEqual(
      expect.arrayContaining(['/', '/about', '/enterprises', '/contact-us', 'navbar-data'])
    )
    expect([...pages].filter((page) => page.startsWith('/enterprises/'))).toHaveLength(5)
    for (const row of report.completeness)
      expect(row, `${row.page} ${row.lng}`).toMatchObject({ own: row.shown })
    // The reference content leaves these empty on purpose: listed in content-check.accept.
    expect(new Set(linesOf(report))).toEqual(
      new Set([
        '/ * empty enterprisesHome[4].icon',
        '/ * empty enterprisesHome[4].iconLink',
        '/enterprises * empty enterprises[4].icon',
        '/enterprises * empty enterprises[4].iconLink',
        '/enterprises/5-erebuni-plaza * empty enterprises[4].icon',
        '/enterprises/5-erebuni-plaza * empty enterprises[4].iconLink',
        '/contact-us * empty twitter',
        '/contact-us * empty pinterest',
        '/contact-us * empty tiktok',
      ])
    )
  })

  it("names a field shown from another language's variant, which variant, and counts it against the page's completeness", async () => {
    const report = await reportOf({
      'get-about-page': {
        titleMission: 'Mission',
        arm_titleMission: 'Առաքելություն',
        subTitleMission: 'Why',
        ru_subTitleMission: 'Зачем',
      },
    })
    expect(report.gaps).toContainEqual(
      expect.objectContaining({
        page: '/about',
        lng: 'ru',
        kind: 'fallback',
        field: 'ru_titleMission',
        detail: 'shown from titleMission (English)',
        counted: true,
      })
    )
    expect(report.gaps).toContainEqual(
      expect.objectContaining({
        page: '/about',
        lng: 'hy',
        kind: 'fallback',
        field: 'arm_subTitleMission',
      })
    )
    const ru = report.completeness.find((row) => row.page === '/about' && row.lng === 'ru')
    expect(ru!.own).toBeLessThan(ru!.shown)
  })

  it('says why an address was dropped and what the sanitizer removed', async () => {
    const report = await reportOf({
      'get-home-page': {
        enterprisesHome: [
          {
            id: 1,
            title: 'A',
            btnLink: 'javascript:alert(1)',
            description: '<p onclick="x()">Hi<script>bad()</script></p>',
          },
        ],
      },
    })
    const gap = (field: string, lng = '*') =>
      report.gaps.find((candidate) => candidate.field === field && candidate.lng === lng)
    expect(gap('enterprisesHome[0].btnLink')).toMatchObject({ kind: 'dropped-address' })
    expect(gap('enterprisesHome[0].btnLink')!.detail).toMatch(/unsafe scheme javascript:/)
    const removed = gap('enterprisesHome[0].description', 'en')
    expect(removed).toMatchObject({ kind: 'sanitized', counted: true })
    expect(removed!.detail).toContain('<script> with its content')
    expect(removed!.detail).toContain('onclick on <p>')
  })

  it('lists an enterprise item without a page, and why, and hides an empty list as a section', async () => {
    const report = await reportOf({
      'get-enterprises-page': {
        enterprises: [
          { id: 'a-b', title: 'Dash', ru_title: 'Д', arm_title: 'Դ' },
          { id: 7, title: 'Seven', ru_title: 'Семь', arm_title: 'Յոթ' },
        ],
      },
      'get-about-page': {},
    })
    expect(report.gaps).toContainEqual(
      expect.objectContaining({ page: '/enterprises', kind: 'no-page', field: 'enterprises[0].id' })
    )
    expect(report.completeness.map((row) => row.page)).toContain('/enterprises/7-seven')
    expect(report.gaps).toContainEqual(
      expect.objectContaining({ page: '/about', kind: 'hidden-section', field: 'missions' })
    )
  })

  it('gives a payload that times out one line, and loads the others all the same', async () => {
    backend = fakeBackend({ 'contact-us': 'hang' })
    const loads = await loadPayloads(backend.env(), 200)
    const report = buildContentReport(loads, { backend: 'test' })
    const failed = report.gaps.filter((gap) => gap.kind === 'payload-failed')
    expect(failed).toHaveLength(1)
    expect(failed[0]).toMatchObject({
      page: '/contact-us',
      lng: '*',
      source: 'contact-us',
      counted: true,
    })
    expect(failed[0]!.detail).toMatch(/^contact-us: .*time/i)
    expect(report.completeness.map((row) => row.page)).toEqual(
      expect.arrayContaining(['/', '/about', 'navbar-data'])
    )
  })

  describe('an image', () => {
    const use = {
      page: '/about',
      source: 'get-about-page',
      field: 'secondBanner.img',
      address: '/x.jpg',
    }
    const read = (base64: string) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
      return { status: 200, bytes: bytes.length, head: bytes }
    }

    it('whose original the route refuses or cannot open fails, and the bundled image shows', () => {
      expect(judgeOriginal(use, read(env.TEST_IMAGES.bombPng))).toMatchObject({
        kind: 'image-failed',
        lng: '*',
        field: 'secondBanner.img',
      })
      expect(judgeOriginal(use, read(env.TEST_IMAGES.bombPng))!.detail).toMatch(
        /60000×60000 px.*over the pixel limits/
      )
      expect(judgeOriginal(use, { status: 404, bytes: 0, head: new Uint8Array() })!.detail).toMatch(
        /HTTP 404/
      )
      expect(judgeOriginal(use, { error: 'not found in public/' })!.kind).toBe('image-failed')
      expect(
        refusedSource('https://elsewhere.example/a.jpg', {
          API_HOST: 'https://cms.example',
          IMAGE_ORIGINS: '',
        })
      ).toMatch(/not an allowed image origin/)
      expect(
        refusedSource('https://cms.example/a.jpg', {
          API_HOST: 'https://cms.example',
          IMAGE_ORIGINS: '',
        })
      ).toBeNull()
    })

    it('far wider than the widest rendition is named with its bytes and pixels, and not counted', () => {
      const camera = read(env.TEST_IMAGES.cameraJpeg)
      const gap = judgeOriginal(use, camera)
      expect(gap).toMatchObject({ kind: 'image-oversized' })
      expect(gap!.detail).toContain(`4000×3000 px, ${camera.bytes} bytes`)
      expect(judgeOriginal(use, read(env.TEST_IMAGES.samples.jpeg))).toBeNull()
      const report = buildContentReport(new Map(), { backend: 'test', extra: [gap!] })
      expect(report.gaps.find((listed) => listed.kind === 'image-oversized')).toMatchObject({
        counted: false,
      })
    })
  })

  it('lists a dictionary key one language lacks, and none while every language has every key', () => {
    expect(findDictionaryGaps()).toEqual([])
    const ru = dictionaries.ru.ui as Record<string, string>
    const hy = dictionaries.hy.ui as Record<string, string | undefined>
    const [ruText, hyText] = [ru.home!, hy.about]
    ru.home = ''
    delete hy.about
    try {
      const gaps = findDictionaryGaps()
      expect(gaps.map((gap) => `${gap.lng} ${gap.field}`).sort()).toEqual([
        'hy ui.about',
        'ru ui.home',
      ])
    } finally {
      ru.home = ruText
      hy.about = hyText
    }
  })
})

describe('POST /api/publish', () => {
  async function publish(bindings: Bindings, body = '{}') {
    const { ctx } = contextWithWorkersCache()
    const request = new Request('http://localhost/api/publish', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(await signedNow(SECRET, body)) },
      body,
    })
    const response = await worker.fetch(request, bindings, ctx)
    const answer = {
      status: response.status,
      body: await response.json<{ content: ContentReport }>(),
    }
    await waitOnExecutionContext(ctx)
    return answer
  }

  it('answers with the gaps of the payloads it published, per page, language and field', async () => {
    const home = samplePayloads['get-home-page'] as Record<string, unknown>
    backend = fakeBackend({
      'get-home-page': json({
        payload: {
          ...home,
          foundersHome: [
            { id: 1, title: 'Ann', ru_title: 'Анна', arm_title: 'Աննա', img: 'javascript:x' },
          ],
        },
      }),
      'get-about-page': json({
        payload: { titleMission: 'Our mission', arm_titleMission: 'Մեր առաքելությունը' },
      }),
    })
    const { status, body } = await publish(
      backend.env({ PUBLISH_SECRET: SECRET }),
      '{"payloads":["get-home-page","get-about-page"]}'
    )
    expect(status).toBe(200)
    expect(body.content.version).toBe(1)
    const gaps = body.content.gaps
    expect(gaps).toContainEqual(
      expect.objectContaining({
        page: '/about',
        lng: 'ru',
        kind: 'fallback',
        source: 'get-about-page',
        field: 'ru_titleMission',
      })
    )
    expect(gaps).toContainEqual(
      expect.objectContaining({
        page: '/',
        lng: '*',
        kind: 'dropped-address',
        field: 'foundersHome[0].img',
      })
    )
    // Only what it published (and the bundled dictionaries) is reported.
    const sources = new Set(gaps.map((gap: Gap) => gap.source.split(' ')[0]))
    for (const source of sources)
      expect(source).toMatch(/^(get-home-page|get-about-page|src\/shared\/i18n\/)/)
    expect(body.content.open).toBeGreaterThan(0)
  })

  it('gives a payload that fails or is malformed one line, and still reports the others', async () => {
    backend = fakeBackend({
      'contact-us': json({ message: 'down' }, 500),
      'navbar-data': text('<html>502</html>'),
    })
    const { status, body } = await publish(backend.env({ PUBLISH_SECRET: SECRET }))
    expect(status).toBe(502)
    const failed = body.content.gaps.filter((gap) => gap.kind === 'payload-failed')
    expect(failed.map((gap) => `${gap.page} ${gap.source}`).sort()).toEqual([
      '/contact-us contact-us',
      'navbar-data navbar-data',
    ])
    expect(failed.find((gap) => gap.source === 'contact-us')!.detail).toMatch(/HTTP 500/)
    expect(failed.find((gap) => gap.source === 'navbar-data')!.detail).toMatch(/not JSON/)
    expect(body.content.completeness.map((row) => row.page)).toContain('/about')
  })
})
