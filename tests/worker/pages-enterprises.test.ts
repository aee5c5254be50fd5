/**
 * The enterprises page: served by the worker from the seeded reference service in each language,
 * and the view (src/views/pages/enterprises-page.tsx) with hand-made payloads for alternating
 * items, icons, buttons, skipped items and fallbacks.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import seed from '../../content-service/seed/enterprises.json'
import { EnterprisesPayloadSchema } from '../../src/content/schemas'
import { getT } from '../../src/shared/i18n'
import { LANGUAGES, type Lng } from '../../src/shared/languages'
import { EnterprisesPage } from '../../src/views/pages/enterprises-page'
import {
  headingLevels,
  headingsInOrder,
  imageSource,
  pageProblems,
  renderView,
  select,
  selectOne,
} from '../support/worker/views'
import { fetchPage } from '../support/worker/worker'

const full = {
  banner: {
    img: '/images/ent-banner.jpg',
    titleBanner: 'Our projects',
    ru_titleBanner: 'Наши проекты',
    description: '<p>Since <em>1998</em></p>',
  },
  enterprises: [
    {
      id: 1,
      img: '/images/e1.jpg',
      icon: '/images/i1.png',
      iconLink: 'https://one.example',
      title: 'Arabkir Residence',
      arm_title: 'Արաբկիր Ռեզիդենս',
      description: '<p onclick="x">Homes<img src=x onerror=alert(1)></p>',
      btnName: 'Visit',
      btnLink: 'https://one.example',
    },
    {
      id: 2,
      img: '',
      icon: '',
      iconLink: '',
      title: 'Cascade Offices',
      description: '<ul><li>Offices</li></ul>',
      btnName: 'Details',
      btnLink: '/enterprise-detail?id=2',
    },
    { id: 3, img: '/images/e3.jpg', title: '', description: '' },
    {
      id: 4,
      img: '/images/e4.jpg',
      icon: '/images/i4.png',
      iconLink: '',
      title: 'Nork Park',
      description: '',
      btnName: 'More',
      btnLink: '',
    },
    { id: 5, img: '/images/e5.jpg', title: '', description: '<p>Only text</p>' },
  ],
}

function render(lng: Lng, payload: unknown = full) {
  return renderView(EnterprisesPage, { lng, page: EnterprisesPayloadSchema.parse(payload) })
}

describe('enterprises page view', () => {
  it.each(LANGUAGES)('has one h1 from the banner and headings in order in %s', async (lng) => {
    const html = render(lng)
    expect(await select(html, 'h1')).toHaveLength(1)
    expect(headingsInOrder(headingLevels(html))).toBe(true)
  })

  it('localizes the banner title and falls back to the dictionary', async () => {
    expect((await selectOne(render('ru'), 'h1'))?.text).toBe('Наши проекты')
    expect((await selectOne(render('hy'), 'h1'))?.text).toBe('Our projects')
    expect((await selectOne(render('hy', {}), 'h1'))?.text).toBe(getT('hy')('ui.enterprisesTitle'))
  })

  it('skips items with neither title nor description and alternates the rest left and right', async () => {
    const rows = await select(render('en'), '.feature-row')
    expect(rows).toHaveLength(4)
    expect(rows.map((row) => row.attrs.class?.includes('feature-row--reverse'))).toEqual([
      false,
      true,
      false,
      true,
    ])
    expect(render('en')).not.toContain('/images/e3.jpg')
  })

  it('shows item titles as h2 in the visitor language with the unprefixed fallback', async () => {
    expect((await select(render('hy'), '.feature-row__title')).map((title) => title.text)).toEqual([
      'Արաբկիր Ռեզիդենս',
      'Cascade Offices',
      'Nork Park',
    ])
  })

  it('uses /default-enterprise.jpg for a missing image, with the title as alt', async () => {
    const images = await select(render('en'), '.feature-row__media img')
    expect(images.map((image) => [imageSource(image.attrs.src ?? ''), image.attrs.alt])).toEqual([
      ['/images/e1.jpg', 'Arabkir Residence'],
      ['/default-enterprise.jpg', 'Cascade Offices'],
      ['/images/e4.jpg', 'Nork Park'],
      ['/images/e5.jpg', ''],
    ])
  })

  it('links the optional icon when it has a link, and shows it plain otherwise', async () => {
    const icons = await select(render('en'), '.feature-row__icon')
    expect(icons).toHaveLength(2)
    expect(icons[0]?.attrs).toMatchObject({
      href: 'https://one.example/',
      target: '_blank',
      rel: 'noopener noreferrer',
      'aria-label': 'Arabkir Residence',
    })
    expect(icons[1]?.attrs.href).toBeUndefined()
  })

  it("gives a linked icon's image the link's purpose as alt, and a plain icon an empty alt (decoration)", async () => {
    const icons = await select(render('en'), '.feature-row__icon img')
    expect(icons.map((icon) => icon.attrs.alt)).toEqual(['Arabkir Residence', ''])
  })

  it("sends buttons out in a new tab, internal ones with the prefix, and missing links to the project's page (the spec's /enterprise-detail)", async () => {
    const buttons = await select(render('ru'), '.feature-row .button')
    // Each label is followed by its item's title for screen readers and crawlers, not shown.
    expect(buttons.map((button) => [button.text, button.attrs.href, button.attrs.target])).toEqual([
      ['Visit: Arabkir Residence', 'https://one.example/', '_blank'],
      ['Details: Cascade Offices', '/ru/enterprise-detail?id=2', undefined],
      ['More: Nork Park', '/ru/enterprises/4-nork-park', undefined],
    ])
  })

  it('sanitizes the HTML descriptions', async () => {
    const html = render('en')
    expect(html).not.toMatch(/onclick|onerror|<img src="x"/)
    expect((await selectOne(html, '.feature-row .rich-text'))?.text).toBe('Homes')
    expect(html).toContain('<ul><li>Offices</li></ul>')
  })

  it('renders only the banner when there are no items', () => {
    const html = render('en', { banner: full.banner, enterprises: [] })
    expect(html).not.toContain('enterprises-list')
    expect(headingLevels(html)).toEqual([1])
  })
})

describe('enterprises page served from the seeded reference service', () => {
  it.each([
    ['/enterprises', 'hy', seed.banner.arm_titleBanner],
    ['/en/enterprises', 'en', seed.banner.titleBanner],
    ['/ru/enterprises', 'ru', seed.banner.ru_titleBanner],
  ] as const)(
    'GET %s renders the banner and alternating items in %s with sound links and images',
    async (path, lng, title) => {
      const response = await fetchPage(path, env)
      expect(response.status).toBe(200)
      const html = await response.text()
      expect((await select(html, 'h1')).map((h1) => h1.text)).toEqual([title])
      expect(headingsInOrder(headingLevels(html))).toBe(true)
      const rows = await select(html, '.feature-row')
      expect(rows).toHaveLength(seed.enterprises.length)
      expect(rows.map((row) => row.attrs.class?.includes('--reverse'))).toEqual(
        seed.enterprises.map((_, index) => index % 2 === 1)
      )
      expect(await pageProblems(html, lng)).toEqual([])
    }
  )
})
