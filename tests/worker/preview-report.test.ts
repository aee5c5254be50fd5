/**
 * The content report in preview: marks in place on a preview page, made from the payloads that
 * request loaded by the report module (src/report/, src/views/components/gap-marks.tsx);
 * the preview bar's counts; the report's page and JSON at /_preview/report(.json), for a preview
 * session only.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Bindings } from '../../src/env'
import type { ContentReport } from '../../src/report'
import { fakeBackend, json } from '../support/worker/fake-backend'
import { EDITOR_TOKEN, enterPreview, previewLink, PREVIEW_SECRET } from '../support/worker/preview'
import { fetchPage } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => backend?.restore())

/** An about page with one gap of each kind a mark shows. */
const ABOUT_WITH_GAPS = {
  firstBanner: { titleBanner: 'About us', ru_titleBanner: 'О нас', arm_titleBanner: 'Մեր մասին' },
  titleMission: 'Our mission',
  ru_titleMission: '<p><br></p>',
  arm_titleMission: 'Առաքելություն',
  descriptionMission: '<p>We build.<script>alert(1)</script></p>',
  secondBanner: { img: '/images/not-there.jpg' },
  missions: [],
  thirdBanner: [{ id: 1, title: 'Partner', imgLink: 'javascript:alert(1)' }],
}

function previewBindings(): Bindings {
  backend = fakeBackend({ 'get-about-page': json({ payload: ABOUT_WITH_GAPS }) })
  return backend.env({ PREVIEW_SECRET, PREVIEW_API_TOKEN: EDITOR_TOKEN })
}

async function previewOf(path: string, bindings: Bindings, link = path) {
  const cookie = await enterPreview(await previewLink(link), bindings)
  const response = await fetchPage(`/_preview${path}`, bindings, { headers: { Cookie: cookie } })
  return { response, html: await response.text(), cookie }
}

/** The marks of a page: their text and where they lead. */
function marksOf(html: string): { text: string; href: string }[] {
  return [...html.matchAll(/<a class="gap-mark" href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map(
    ([, href, text]) => ({ href: href!, text: text!.replace(/&#x27;/g, "'") })
  )
}

describe('a preview page', () => {
  it('marks each gap of its language where it is, naming the field, as a link to its line in the report', async () => {
    const bindings = previewBindings()
    const { response, html } = await previewOf('/ru/about', bindings)
    expect(response.status).toBe(200)
    const marks = marksOf(html)
    const texts = marks.map((mark) => mark.text)
    expect(texts).toEqual(
      expect.arrayContaining([
        'English text: ru_titleMission is empty',
        'Section hidden: missions has no items',
        'Bundled image shown: secondBanner.img',
        'Address dropped: thirdBanner[0].imgLink',
        'HTML removed from descriptionMission',
      ])
    )
    for (const mark of marks) expect(mark.href).toMatch(/^\/_preview\/report#gap-[0-9a-z]+$/)
    // Each mark sits at its section: the mission's before the partners', the hidden list's too.
    expect(html.indexOf('ru_titleMission is empty')).toBeLessThan(
      html.indexOf('thirdBanner[0].imgLink')
    )
  })

  it("marks only its own language's gaps, and counts each language's in the preview bar", async () => {
    const bindings = previewBindings()
    const { html } = await previewOf('/en/about', bindings)
    expect(html).not.toContain('ru_titleMission is empty')
    expect(html).toContain('HTML removed from descriptionMission')
    const counts = [...html.matchAll(/class="preview-bar__gaps">(\d+)</g)].map(([, n]) => Number(n))
    expect(counts).toHaveLength(3)
    const en = marksOf(html).length
    expect(counts[0]).toBe(en)
    // Russian visitors meet the English mission title besides what English visitors meet.
    expect(Math.max(...counts)).toBeGreaterThan(en)
  })
})

describe('/_preview/report', () => {
  it('lists per page and language the gaps with their fixes, each page linking to its previews, each mark leading to its line', async () => {
    const bindings = previewBindings()
    const { html: page, cookie } = await previewOf('/ru/about', bindings)
    const response = await fetchPage('/_preview/report', bindings, { headers: { Cookie: cookie } })
    expect(response.status).toBe(200)
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
    expect(response.headers.get('X-Robots-Tag')).toMatch(/noindex/)
    const report = await response.text()
    expect(report).toContain('href="/_preview/ru/about"')
    expect(report).toContain('href="/_preview/about"')
    expect(report).toMatch(/Fix: fill ru_titleMission in get-about-page/)
    for (const mark of marksOf(page))
      expect(report, mark.text).toContain(`id="${mark.href.split('#')[1]}"`)
  })

  it('answers the same report as JSON, as content:check --json prints it', async () => {
    const bindings = previewBindings()
    const { cookie } = await previewOf('/ru/about', bindings)
    const response = await fetchPage('/_preview/report.json', bindings, {
      headers: { Cookie: cookie },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
    const report = await response.json<ContentReport>()
    expect(Object.keys(report).sort()).toEqual(
      ['backend', 'completeness', 'gaps', 'generatedAt', 'open', 'version'].sort()
    )
    expect(report.gaps).toContainEqual(
      expect.objectContaining({
        page: '/about',
        lng: 'ru',
        kind: 'fallback',
        field: 'ru_titleMission',
        source: 'get-about-page',
      })
    )
    expect(report.gaps).toContainEqual(
      expect.objectContaining({ page: '/about', kind: 'image-failed', field: 'secondBanner.img' })
    )
  })

  it('is refused without a preview session, as JSON and as a page', async () => {
    const bindings = previewBindings()
    for (const path of ['/_preview/report', '/_preview/report.json']) {
      const response = await fetchPage(path, bindings)
      expect([401, 403], path).toContain(response.status)
      expect(await response.text()).not.toContain('ru_titleMission')
    }
  })
})
