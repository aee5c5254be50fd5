/**
 * The home page: served by the worker from the seeded reference service in each language, and the
 * view (src/views/pages/home-page.tsx) with hand-made payloads parsed through the real schema for
 * the banner choice per language, section order and every fallback.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import seed from '../../content-service/seed/home.json'
import { HomePayloadSchema } from '../../src/content/schemas'
import { getT } from '../../src/shared/i18n'
import { LANGUAGES, type Lng } from '../../src/shared/languages'
import { HomePage } from '../../src/views/pages/home-page'
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

const enterprise = (n: number, extra: Record<string, unknown> = {}) => ({
  id: n,
  img: `/images/e${n}.jpg`,
  title: `Enterprise ${n}`,
  ru_title: `Проект ${n}`,
  arm_title: `Նախագիծ ${n}`,
  description: `<p>About ${n}</p>`,
  btnName: 'More',
  btnLink: `/enterprises`,
  ...extra,
})

const full = {
  banner: [
    {
      img: '/images/hero.jpg',
      title: 'Building Yerevan',
      description: '<p>Homes <script>alert(1)</script>that last</p>',
      btnName: 'Our work',
      btnLink: '/enterprises',
    },
  ],
  ru_banner: [{ img: '/images/hero-ru.jpg', title: 'Строим Ереван', description: '<p>Дома</p>' }],
  arm_banner: [
    { img: '/images/hero-hy.jpg', title: 'Կառուցում ենք Երևանը', description: '<p>Տներ</p>' },
  ],
  aboutHome: {
    img: '/images/about.jpg',
    title: 'About us',
    arm_title: 'Մեր մասին',
    description: '<p>Since 1998</p>',
    btnName: 'Read more',
    btnLink: '/about',
  },
  servicesTitle: 'Services',
  ru_servicesTitle: 'Услуги',
  servicesSubTitle: 'What we do',
  servicesHome: [
    { img: '/images/s1.png', title: 'Design', description: 'Plans' },
    { img: '', title: 'Build', description: 'Sites' },
  ],
  enterprisesHome: [enterprise(1), enterprise(2)],
  foundersTitle: 'Founders',
  foundersHome: [
    { id: 1, img: '/images/f1.jpg', title: 'Ani Petrosyan', arm_title: 'Անի Պետրոսյան' },
    { id: 2, img: '', title: 'Levon Sargsyan' },
  ],
  foundersBtnName: 'Meet the team',
  foundersBtnLink: 'https://team.example.am',
}

function render(lng: Lng, payload: unknown = full) {
  return renderView(HomePage, { lng, home: HomePayloadSchema.parse(payload) })
}

describe('home page view', () => {
  it.each(LANGUAGES)(
    'renders one h1, headings in order and the sections in spec order in %s',
    (lng) => {
      const html = render(lng)
      const levels = headingLevels(html)
      expect(levels.filter((level) => level === 1)).toHaveLength(1)
      expect(levels[0]).toBe(1)
      expect(headingsInOrder(levels)).toBe(true)
      const order = [
        'page-banner--hero',
        'home-about',
        'home-services',
        'home-enterprises',
        'home-founders',
      ].map((name) => html.indexOf(name))
      expect(order.every((at) => at >= 0)).toBe(true)
      expect([...order].sort((a, b) => a - b)).toEqual(order)
    }
  )

  it.each([
    ['hy', 'Կառուցում ենք Երևանը', '/images/hero-hy.jpg'],
    ['ru', 'Строим Ереван', '/images/hero-ru.jpg'],
    ['en', 'Building Yerevan', '/images/hero.jpg'],
  ] as const)('uses the banner list of %s for the hero', async (lng, title, img) => {
    const html = render(lng)
    expect((await selectOne(html, 'h1'))?.text).toBe(title)
    expect(imageSource((await selectOne(html, '.page-banner__image'))?.attrs.src ?? '')).toBe(img)
  })

  it('falls back to banner[0] when the language has no banner list', async () => {
    const html = render('ru', { ...full, ru_banner: [] })
    expect((await selectOne(html, 'h1'))?.text).toBe('Building Yerevan')
  })

  it('makes the hero image the high-priority paint and everything else lazy, all with sizes and alt', async () => {
    const images = await select(render('en'), 'img')
    const [hero, ...rest] = images
    expect(hero?.attrs).toMatchObject({
      fetchpriority: 'high',
      loading: 'eager',
      alt: 'Building Yerevan',
    })
    expect(rest.length).toBeGreaterThan(4)
    for (const image of images) {
      expect(Number(image.attrs.width)).toBeGreaterThan(0)
      expect(Number(image.attrs.height)).toBeGreaterThan(0)
      expect(image.attrs.alt).toBeDefined()
      expect(image.attrs.src).toBeTruthy()
    }
    for (const image of rest) {
      expect(image.attrs.loading).toBe('lazy')
      expect(image.attrs.fetchpriority).toBeUndefined()
    }
  })

  it('sanitizes the hero description and shows its optional button', async () => {
    const html = render('en')
    expect(html).not.toContain('<script>alert(1)')
    expect((await selectOne(html, '.page-banner__text'))?.text).toBe('Homes that last')
    expect((await selectOne(html, '.page-banner .button'))?.attrs.href).toBe('/en/enterprises')
    expect(await select(render('ru'), '.page-banner .button')).toHaveLength(0)
  })

  it('uses the bundled banner and the site name when the hero has no image and no title', async () => {
    const html = render('hy', { banner: [{ description: 'x' }] })
    expect(imageSource((await selectOne(html, '.page-banner__image'))?.attrs.src ?? '')).toBe(
      '/default-banner.jpg'
    )
    expect((await selectOne(html, 'h1'))?.text).toBe(getT('hy')('meta.siteName'))
  })

  it('shows the about block with its localized title, the fallback image and its button', async () => {
    const html = render('hy', { ...full, aboutHome: { ...full.aboutHome, img: '' } })
    expect((await selectOne(html, '#home-about-title'))?.text).toBe('Մեր մասին')
    expect(imageSource((await selectOne(html, '.home-about img'))?.attrs.src ?? '')).toBe(
      '/default-about.jpg'
    )
    expect((await selectOne(html, '.home-about .button'))?.attrs.href).toBe('/about')
  })

  it.each([
    ['en', 'Learn more', 'Who we are'],
    ['ru', 'Подробнее', 'Кто мы'],
    ['hy', 'Իմանալ ավելին', 'Ովքեր ենք մենք'],
  ] as const)(
    'says what the about button leads to, after its label, to screen readers and crawlers in %s',
    async (lng, label, title) => {
      const html = renderView(HomePage, { lng, home: HomePayloadSchema.parse(seed) })
      const button = await selectOne(html, '.home-about .button')
      expect(button?.text).toBe(`${label}: ${title}`)
      expect((await selectOne(html, '.home-about .button .visually-hidden'))?.text).toBe(
        `: ${title}`
      )
    }
  )

  it('names each card of the carousel in its "Learn more" button when the card has no button label of its own', async () => {
    const items = [1, 2, 3, 4].map((n) => enterprise(n, n === 2 ? {} : { btnName: '' }))
    const html = render('en', { ...full, enterprisesHome: items })
    const buttons = await select(html, '.enterprise-card__link')
    expect(buttons.map((button) => button.text)).toEqual([
      'Learn more: Enterprise 1',
      'More',
      'Learn more: Enterprise 3',
      'Learn more: Enterprise 4',
    ])
  })

  it('hides the about block without a title or a description', () => {
    expect(render('en', { ...full, aboutHome: { img: '/images/a.jpg' } })).not.toContain(
      'home-about'
    )
  })

  it('links every service title to the services target, with the icon fallback', async () => {
    const html = render('ru')
    expect((await selectOne(html, '#services-title'))?.text).toBe('Услуги')
    const links = await select(html, '.service-card__title a')
    expect(links.map((link) => link.attrs.href)).toEqual(['/ru/services', '/ru/services'])
    const icons = await select(html, '.service-card__icon')
    expect(icons.map((icon) => imageSource(icon.attrs.src ?? ''))).toEqual([
      '/images/s1.png',
      '/default-service-icon.png',
    ])
  })

  it('hides the services grid when there are no services', () => {
    const html = render('en', { ...full, servicesHome: [] })
    expect(html).not.toContain('id="services"')
  })

  it.each(LANGUAGES)(
    'falls back to the dictionary for the enterprises title and subtitle in %s',
    async (lng) => {
      const t = getT(lng)
      const html = render(lng)
      expect((await selectOne(html, '#enterprises-title'))?.text).toBe(t('ui.enterprisesTitle'))
      expect((await selectOne(html, '.home-enterprises .section-heading__subtitle'))?.text).toBe(
        t('ui.enterprisesSubtitle')
      )
    }
  )

  it('shows up to 3 enterprises as alternating rows', async () => {
    const html = render('en', {
      ...full,
      enterprisesHome: [enterprise(1), enterprise(2), enterprise(3)],
    })
    const rows = await select(html, '.feature-row')
    expect(rows.map((row) => row.attrs.class)).toEqual([
      'feature-row',
      'feature-row feature-row--reverse',
      'feature-row',
    ])
    expect(html).not.toContain('carousel')
  })

  it('shows more than 3 enterprises as a server-rendered carousel of slides', async () => {
    const items = [1, 2, 3, 4, 5].map((n) => enterprise(n))
    const html = render('ru', { ...full, enterprisesHome: items })
    expect(await select(html, '.feature-row')).toHaveLength(0)
    const slides = await select(html, '.carousel__track > .carousel__slide')
    expect(slides).toHaveLength(5)
    expect((await select(html, '.enterprise-card__title')).map((title) => title.text)).toEqual([
      'Проект 1',
      'Проект 2',
      'Проект 3',
      'Проект 4',
      'Проект 5',
    ])
  })

  it('skips enterprises with neither title nor description and counts only the rest', async () => {
    const blank = { id: 9, img: '/images/x.jpg', title: '', description: '<p> </p>' }
    const html = render('en', {
      ...full,
      enterprisesHome: [enterprise(1), blank, enterprise(2), enterprise(3)],
    })
    expect(await select(html, '.feature-row')).toHaveLength(3)
    expect(html).not.toContain('/images/x.jpg')
  })

  it('hides the enterprises block when no enterprise has content', () => {
    expect(render('en', { ...full, enterprisesHome: [] })).not.toContain('home-enterprises')
  })

  it('links enterprise buttons: internal with the prefix, external in a new tab, missing to the enterprises list without project pages', async () => {
    const items = [
      enterprise(1, { btnLink: '/about' }),
      enterprise(2, { btnLink: 'https://erebuni.example.am/project' }),
      enterprise(3, { btnLink: '' }),
    ]
    const buttons = await select(
      render('ru', { ...full, enterprisesHome: items }),
      '.feature-row .button'
    )
    expect(buttons.map((button) => button.attrs.href)).toEqual([
      '/ru/about',
      'https://erebuni.example.am/project',
      '/ru/enterprises',
    ])
    expect(buttons[1]?.attrs).toMatchObject({ target: '_blank', rel: 'noopener noreferrer' })
    expect(buttons[0]?.attrs.target).toBeUndefined()
  })

  it("shows founders as round photos captioned with their names (the photo's alt empty, so the name is not read twice), initials without a photo, and the optional button", async () => {
    const html = render('hy')
    expect((await select(html, '.founder__name')).map((name) => name.text)).toEqual([
      'Անի Պետրոսյան',
      'Levon Sargsyan',
    ])
    expect((await selectOne(html, 'img.founder__photo'))?.attrs.alt).toBe('')
    expect((await selectOne(html, '.founder__photo--initials'))?.text).toBe('LS')
    expect((await selectOne(html, '.home-founders .button'))?.attrs).toMatchObject({
      href: 'https://team.example.am/',
      target: '_blank',
    })
  })

  it('hides the founders block when there are no founders', () => {
    expect(render('en', { ...full, foundersHome: [] })).not.toContain('home-founders')
  })

  it('renders an empty payload as just the hero', () => {
    const html = render('en', {})
    expect(headingLevels(html)).toEqual([1])
  })
})

describe('home page served from the seeded reference service', () => {
  it.each([
    ['/', 'hy', seed.arm_banner[0]!.title],
    ['/en', 'en', seed.banner[0]!.title],
    ['/ru', 'ru', seed.ru_banner[0]!.title],
  ] as const)(
    'GET %s renders every section in %s with sound links and images',
    async (path, lng, heroTitle) => {
      const response = await fetchPage(path, env)
      expect(response.status).toBe(200)
      const html = await response.text()
      expect((await select(html, 'h1')).map((h1) => h1.text)).toEqual([heroTitle])
      expect(headingsInOrder(headingLevels(html))).toBe(true)
      expect(await select(html, '.service-card')).toHaveLength(seed.servicesHome.length)
      // The seed has more than three enterprises: a carousel, one slide each.
      expect(seed.enterprisesHome.length).toBeGreaterThan(3)
      expect(await select(html, '.carousel__slide')).toHaveLength(seed.enterprisesHome.length)
      expect(await select(html, '.founder')).toHaveLength(seed.foundersHome.length)
      expect(await pageProblems(html, lng)).toEqual([])
    }
  )
})
