/**
 * The content report (src/report/): what each page's visitors miss, per language, found
 * by the site's own picker, address parser, sanitizer and project rules; and the publish hook's
 * answer, which lists the gaps of the payloads it just loaded.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import worker from '../../src/index'
import type { Bindings } from '../../src/env'
import {
  buildContentReport,
  findImageGaps,
  formatReportText,
  loadPayloads,
  type ContentReport,
  type Gap,
  type PayloadLoad,
} from '../../src/report'
import { findDictionaryGaps } from '../../src/report/dictionary-gaps'
import { dictionaries } from '../../src/shared/i18n'
import { payloadSchema } from '../../src/content/payload-catalogue'
import { fakeBackend, json, samplePayloads, text } from '../support/worker/fake-backend'
import { signedNow } from '../support/worker/signed-call'
import { contextWithWorkersCache } from '../support/worker/freshness'
import { waitOnExecutionContext } from 'cloudflare:test'
import { fetchPage } from '../support/worker/worker'

const SECRET = 'content-report-secret'
let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => backend?.restore())

/** The gaps of `report` as `page lng kind field` lines, the way an editor scans them. */
const linesOfGap = (gap: Gap) => `${gap.page} ${gap.lng} ${gap.kind} ${gap.field}`
const linesOf = (report: ContentReport) => report.gaps.map(linesOfGap)

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
  it('shows every page of the bundled reference content complete in every language, with no gap', async () => {
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
    // What it leaves empty (icons, icon links, three social links) the spec calls optional.
    expect(linesOf(report)).toEqual([])
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
    // Every language shows the English description: its removal is one line, for all of them.
    expect(report.gaps.filter((listed) => listed.kind === 'sanitized')).toHaveLength(1)
    const removed = gap('enterprisesHome[0].description')
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
    const ORIGIN = 'https://cms.example'
    /** The route's environment: the backend's origin is the one allowed image origin. */
    const imageEnv = { API_HOST: ORIGIN, IMAGE_ORIGINS: '' }
    /** Bundled files as the ASSETS binding serves them: these, else 404. */
    const assetsOf = (files: Record<string, string>): Fetcher =>
      ({
        fetch: async (input: RequestInfo | URL) => {
          const { pathname } = new URL(input instanceof Request ? input.url : String(input))
          const base64 = files[pathname]
          if (!base64) return new Response(null, { status: 404 })
          return new Response(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)))
        },
      }) as unknown as Fetcher
    const loadsWith = async (img: string) => {
      const schema = await payloadSchema('get-about-page')
      const raw = { secondBanner: { img } }
      return new Map<string, PayloadLoad>([
        ['payload:get-about-page', { raw, payload: schema.parse(raw) }],
      ])
    }
    const gapsOf = async (img: string, assets = assetsOf({})) =>
      findImageGaps(await loadsWith(img), { env: imageEnv, assets, timeoutMs: 5_000 })

    it('whose original the route refuses or cannot open fails, and the bundled image shows', async () => {
      const bomb = await gapsOf('/x.png', assetsOf({ '/x.png': env.TEST_IMAGES.bombPng }))
      expect(bomb).toEqual([
        expect.objectContaining({ kind: 'image-failed', lng: '*', field: 'secondBanner.img' }),
      ])
      expect(bomb[0]!.detail).toMatch(/too-many-pixels.*60000×60000 px/)
      expect((await gapsOf('/missing.jpg'))[0]!.detail).toMatch(/origin-not-found.*404/)
      const elsewhere = await gapsOf('https://elsewhere.example/a.jpg')
      expect(elsewhere[0]!.detail).toMatch(
        /the image route refuses it: .*not an allowed image origin/
      )
    })

    it("is read with the route's Accept header, and a redirect the route refuses fails", async () => {
      const seen: Headers[] = []
      const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
        const request = new Request(input as RequestInfo, init)
        seen.push(request.headers)
        expect(request.redirect).toBe('manual')
        return new Response(null, {
          status: 302,
          headers: { Location: 'https://elsewhere.example/b.jpg' },
        })
      })
      try {
        const gaps = await gapsOf(`${ORIGIN}/a.jpg`)
        expect(gaps).toEqual([expect.objectContaining({ kind: 'image-failed' })])
        expect(gaps[0]!.detail).toMatch(/redirect-refused.*elsewhere\.example/)
        expect(seen).toHaveLength(1)
        expect(seen[0]!.get('Accept')).toMatch(/^image\/avif,image\/webp/)
      } finally {
        spy.mockRestore()
      }
    })

    it('far wider than the widest rendition is named with its bytes and pixels, and not counted', async () => {
      const files = {
        '/camera.jpg': env.TEST_IMAGES.cameraJpeg,
        '/sample.jpg': env.TEST_IMAGES.samples.jpeg,
      }
      const gaps = await gapsOf('/camera.jpg', assetsOf(files))
      expect(gaps).toEqual([expect.objectContaining({ kind: 'image-oversized' })])
      expect(gaps[0]!.detail).toMatch(/4000×3000 px, \d+ bytes/)
      expect(await gapsOf('/sample.jpg', assetsOf(files))).toEqual([])
      const report = buildContentReport(new Map(), { backend: 'test', extra: gaps })
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

describe('the content report tells editors only what visitors miss', () => {
  /** Markup a rich-text editor saves for a cleared field, and other values without text. */
  const WITHOUT_TEXT = [
    '<p><br></p>',
    '<p></p>',
    '<p><br/></p>',
    '<p>&nbsp;</p>',
    '<p>  </p>',
    ' <div> \n</div>',
  ]

  it.each(WITHOUT_TEXT)(
    'shows Russian visitors of /ru/about the English mission where ru_ holds %j',
    async (empty) => {
      backend = fakeBackend({
        'get-about-page': json({
          payload: {
            titleMission: 'Our mission',
            ru_titleMission: empty,
            descriptionMission: '<p>We build homes that last.</p>',
            ru_descriptionMission: empty,
          },
        }),
      })
      const html = await (await fetchPage('/ru/about', backend.env())).text()
      expect(html).toContain('Our mission')
      expect(html).toContain('We build homes that last.')
    }
  )

  it.each(WITHOUT_TEXT)('names a ru_ field holding %j as shown from English', async (empty) => {
    const report = await reportOf({
      'get-about-page': {
        titleMission: 'Our mission',
        ru_titleMission: empty,
        arm_titleMission: 'Առաքելություն',
        descriptionMission: '<p>We build.</p>',
        ru_descriptionMission: empty,
        arm_descriptionMission: '<p>Կառուցում ենք.</p>',
      },
    })
    for (const field of ['ru_titleMission', 'ru_descriptionMission'])
      expect(report.gaps).toContainEqual(
        expect.objectContaining({ page: '/about', lng: 'ru', kind: 'fallback', field })
      )
    const gap = report.gaps.find((listed) => listed.field === 'ru_descriptionMission')!
    expect(gap.detail).toMatch(/shown from descriptionMission \(English\)$/)
  })

  it('lists no optional field an editor left empty: icon, icon link, a button with neither name nor link, social links, second banners', async () => {
    const report = await reportOf({
      'get-home-page': {
        enterprisesHome: [{ id: 1, img: '/a.jpg', title: 'A', ru_title: 'А', arm_title: 'Ա' }],
      },
      'contact-us': { phoneNumber: '+374 10 000000', contactEmail: 'info@example.am' },
      'get-about-page': { secondBanner: { img: '' } },
    })
    const fields = report.gaps.map((gap) => gap.field)
    for (const optional of [
      'enterprisesHome[0].icon',
      'enterprisesHome[0].iconLink',
      'enterprisesHome[0].btnName',
      'enterprisesHome[0].btnLink',
      'foundersBtnName',
      'foundersBtnLink',
      'facebook',
      'tiktok',
      'secondBanner',
      'secondBanner.img',
    ])
      expect(fields, optional).not.toContain(optional)
  })

  it('lists an optional field where visitors see something wrong: an icon link without an icon, a button with a name and nowhere to go, a link without a name', async () => {
    const report = await reportOf({
      'get-home-page': {
        enterprisesHome: [
          {
            id: 1,
            title: 'A',
            ru_title: 'А',
            arm_title: 'Ա',
            iconLink: 'https://a.example',
            btnLink: 'https://a.example/more',
          },
        ],
        aboutHome: { title: 'About', btnName: 'More', ru_btnName: 'Ещё', arm_btnName: 'Ավելին' },
      },
    })
    expect(linesOf(report)).toEqual(
      expect.arrayContaining([
        '/ * empty enterprisesHome[0].icon',
        '/ ru empty enterprisesHome[0].ru_btnName',
        '/ * empty aboutHome.btnLink',
      ])
    )
    const gap = (field: string) => report.gaps.find((listed) => listed.field === field)!
    expect(gap('enterprisesHome[0].icon').detail).toMatch(/iconLink.*no icon/)
    expect(gap('enterprisesHome[0].ru_btnName').detail).toMatch(/the button is not shown/)
    expect(gap('aboutHome.btnLink').detail).toMatch(/the button is not shown/)
  })

  it("names the site's dictionary text where the site shows it, and does not count it", async () => {
    const report = await reportOf({ 'get-home-page': { servicesTitle: 'Services' } })
    const title = report.gaps.filter((gap) => gap.field.endsWith('enterprisesTitle'))
    expect(title.map((gap) => `${gap.lng} ${gap.kind} ${gap.field}`).sort()).toEqual([
      'en dictionary-default enterprisesTitle',
      'hy dictionary-default arm_enterprisesTitle',
      'ru dictionary-default ru_enterprisesTitle',
    ])
    const en = title.find((gap) => gap.lng === 'en')!
    expect(en.detail).toBe("shows 'Our Enterprises' from the site's dictionary")
    expect(en.counted).toBe(false)
    const withDefaults = /(enterprisesTitle|enterprisesSubTitle|foundersTitle)$/
    const defaults = report.gaps.filter((gap) => withDefaults.test(gap.field))
    expect(defaults).toHaveLength(9)
    for (const gap of defaults) expect(gap.kind, linesOfGap(gap)).toBe('dictionary-default')
  })

  it("shows the dictionary's text the report names", async () => {
    backend = fakeBackend({
      'get-home-page': json({ payload: { enterprisesHome: [{ id: 1, title: 'A' }] } }),
    })
    const html = await (await fetchPage('/en', backend.env())).text()
    expect(html).toContain('Our Enterprises')
  })

  it('gives a sanitizer finding all languages share one line, and one per language where they differ', async () => {
    const report = await reportOf({
      'get-about-page': {
        description: '<p>Shared<script>x()</script></p>',
        descriptionMission: '<p>English</p>',
        ru_descriptionMission: '<p onclick="y()">Русский</p>',
        arm_descriptionMission: '<p>Հայերեն</p>',
      },
    })
    expect(linesOf(report).filter((line) => line.includes('sanitized'))).toEqual([
      '/about * sanitized description',
      '/about ru sanitized ru_descriptionMission',
    ])
  })

  it('never shows a page complete above a gap: its figure agrees with its list', async () => {
    const report = await reportOf({
      'contact-us': {
        titleContact: 'Contact',
        ru_titleContact: 'Контакты',
        arm_titleContact: 'Կապ',
        facebook: 'javascript:alert(1)',
        instagram: 'ftp://x',
      },
    })
    for (const lng of ['hy', 'en', 'ru'] as const) {
      const row = report.completeness.find((row) => row.page === '/contact-us' && row.lng === lng)!
      const counted = report.gaps.filter(
        (gap) => gap.page === '/contact-us' && gap.counted && (gap.lng === lng || gap.lng === '*')
      )
      expect(counted.length).toBeGreaterThan(0)
      expect(row.own).toBe(Math.max(0, row.shown - counted.length))
      expect(row.own).toBeLessThan(row.shown)
    }
    expect(formatReportText(report)).not.toMatch(/^\/contact-us .*100%/m)
  })
})

describe("a visitor's page", () => {
  it('carries no gap mark and no mark styles, whatever the gaps of its content', async () => {
    backend = fakeBackend({
      'get-about-page': json({
        payload: { titleMission: 'Our mission', ru_titleMission: '<p><br></p>', missions: [] },
      }),
    })
    for (const path of ['/ru/about', '/en', '/contact-us']) {
      const html = await (await fetchPage(path, backend.env())).text()
      expect(html, path).not.toMatch(/gap-mark|\/_preview\/report/)
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
