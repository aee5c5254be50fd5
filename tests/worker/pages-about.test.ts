/**
 * The about page: served by the worker from the seeded reference service in each language, and the
 * view (src/views/pages/about-page.tsx) with hand-made payloads for banners, the quote, mission
 * cards, partners and every fallback.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import seed from '../../content-service/seed/about.json'
import { AboutPayloadSchema } from '../../src/content/schemas'
import { getT } from '../../src/shared/i18n'
import { LANGUAGES, type Lng } from '../../src/shared/languages'
import { AboutPage } from '../../src/views/pages/about-page'
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
  title: 'Who we are',
  ru_title: 'Кто мы',
  arm_title: 'Ովքեր ենք մենք',
  description: '<p>Builders since 1998.</p>',
  titleDescSection: { img: '/images/quote.jpg', description: '<p>We build for generations.</p>' },
  firstBanner: {
    img: '/images/about-banner.jpg',
    titleBanner: 'About us',
    ru_titleBanner: 'О нас',
    arm_titleBanner: 'Մեր մասին',
    description: '<p>Our story</p>',
  },
  secondBanner: { img: '/images/wide.jpg' },
  titleMission: 'Mission and vision',
  subTitleMission: 'What drives us',
  descriptionMission: '<p>Quality <a href="javascript:alert(1)">first</a>.</p>',
  missions: [
    { id: 1, img: '/images/m1.png', title: 'Quality', description: 'Tuff and steel' },
    { id: 2, img: '/images/m2.png', title: '', description: '' },
    { id: 3, img: '', title: '', description: '<p>Only a description</p>' },
  ],
  thirdImage: { img: '/images/third.jpg', description: '<p>Trusted by partners</p>' },
  thirdBanner: [
    { id: 1, img: '/images/p1.png', imgLink: 'https://partner-one.example', title: 'Partner One' },
    { id: 2, img: '', imgLink: '/contact-us', title: 'Partner Two' },
    { id: 3, img: '', imgLink: '', title: '' },
  ],
}

function render(lng: Lng, payload: unknown = full) {
  return renderView(AboutPage, { lng, about: AboutPayloadSchema.parse(payload) })
}

describe('about page view', () => {
  it.each([
    ['hy', 'Մեր մասին'],
    ['en', 'About us'],
    ['ru', 'О нас'],
  ] as const)(
    'puts the first banner title in the one h1 in %s, headings in order',
    async (lng, title) => {
      const html = render(lng)
      expect((await select(html, 'h1')).map((h1) => h1.text)).toEqual([title])
      expect(headingsInOrder(headingLevels(html))).toBe(true)
    }
  )

  it('falls back to the page title, then the dictionary, for the h1', async () => {
    expect((await selectOne(render('ru', { ...full, firstBanner: {} }), 'h1'))?.text).toBe('Кто мы')
    expect((await selectOne(render('hy', {}), 'h1'))?.text).toBe(getT('hy')('ui.about'))
  })

  it('shows the title, description and the optional quote image and text', async () => {
    const html = render('en')
    expect((await selectOne(html, '#about-intro-title'))?.text).toBe('Who we are')
    expect(imageSource((await selectOne(html, '.quote-card__image'))?.attrs.src ?? '')).toBe(
      '/images/quote.jpg'
    )
    expect((await selectOne(html, '.quote-card__text'))?.text).toBe('We build for generations.')
  })

  it('leaves the quote out when it has neither image nor text', () => {
    expect(render('en', { ...full, titleDescSection: {} })).not.toContain('quote-card')
  })

  it('shows the second banner full width, with /default-banner.jpg as its fallback', async () => {
    expect(
      imageSource((await selectOne(render('en'), '.wide-banner__image'))?.attrs.src ?? '')
    ).toBe('/images/wide.jpg')
    expect(
      imageSource(
        (await selectOne(render('en', { ...full, secondBanner: null }), '.wide-banner__image'))
          ?.attrs.src ?? ''
      )
    ).toBe('/default-banner.jpg')
  })

  it('skips mission cards with neither title nor description, and unsafe links in the description', async () => {
    const html = render('en')
    expect(await select(html, '.mission-card')).toHaveLength(2)
    expect((await select(html, '.mission-card__title')).map((title) => title.text)).toEqual([
      'Quality',
    ])
    expect((await select(html, '.mission-card__text')).map((text) => text.text)).toEqual([
      'Tuff and steel',
      'Only a description',
    ])
    expect(html).not.toContain('javascript:')
    expect((await selectOne(html, '.about-mission .section-heading__text'))?.text).toBe(
      'Quality first.'
    )
  })

  it('links partner logos out: external in a new tab, internal with the language prefix, names without a logo', async () => {
    const links = await select(render('ru'), '.partner__link')
    expect(links).toHaveLength(2)
    expect(links[0]?.attrs).toMatchObject({
      href: 'https://partner-one.example/',
      target: '_blank',
      rel: 'noopener noreferrer',
      'aria-label': 'Partner One',
    })
    expect(links[1]?.attrs.href).toBe('/ru/contact-us')
    expect(links[1]?.text).toBe('Partner Two')
    expect((await selectOne(render('ru'), '.partner__logo'))?.attrs.alt).toBe('Partner One')
  })

  it.each(LANGUAGES)(
    'gives every image explicit sizes, alt and lazy loading below the banner in %s',
    async (lng) => {
      const [banner, ...rest] = await select(render(lng), 'img')
      expect(banner?.attrs.fetchpriority).toBe('high')
      for (const image of [banner!, ...rest]) {
        expect(image.attrs.width && image.attrs.height).toBeTruthy()
        expect(image.attrs.alt).toBeDefined()
      }
      expect(rest.every((image) => image.attrs.loading === 'lazy')).toBe(true)
    }
  )

  it('renders an empty payload as banner and fallback wide banner only', async () => {
    const html = render('en', {})
    expect(headingLevels(html)).toEqual([1])
    expect((await select(html, 'img')).map((image) => imageSource(image.attrs.src ?? ''))).toEqual([
      '/default-banner.jpg',
      '/default-banner.jpg',
    ])
  })
})

describe('about page served from the seeded reference service', () => {
  it.each([
    ['/about', 'hy', seed.firstBanner.arm_titleBanner],
    ['/en/about', 'en', seed.firstBanner.titleBanner],
    ['/ru/about', 'ru', seed.firstBanner.ru_titleBanner],
  ] as const)(
    'GET %s renders every section in %s with sound links and images',
    async (path, lng, title) => {
      const response = await fetchPage(path, env)
      expect(response.status).toBe(200)
      const html = await response.text()
      expect((await select(html, 'h1')).map((h1) => h1.text)).toEqual([title])
      expect(headingsInOrder(headingLevels(html))).toBe(true)
      expect(await select(html, '.quote-card__text')).toHaveLength(1)
      expect(imageSource((await selectOne(html, '.wide-banner__image'))?.attrs.src ?? '')).toBe(
        seed.secondBanner.img
      )
      expect(await select(html, '.mission-card')).toHaveLength(seed.missions.length)
      expect(await select(html, '.partner__link[target="_blank"]')).toHaveLength(
        seed.thirdBanner.length
      )
      expect(await pageProblems(html, lng)).toEqual([])
    }
  )
})
