/**
 * GET calls of spec section 7 (content-service/src/routes/pages.ts) with the seeded content:
 * every field of payload-fields.md, in three languages, and nothing else.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import {
  asList,
  expectImage,
  expectLink,
  expectLocalized,
  expectOnlyFields,
  getPayload,
  type Json,
} from '../support/content-service'

const BANNER = ['img', 'title', 'description', 'btnName', 'btnLink']
const ENTERPRISE = ['id', 'img', 'icon', 'iconLink', 'title', 'description', 'btnName', 'btnLink']

function expectEnterprise(item: Json): void {
  expectOnlyFields(item, ENTERPRISE)
  expect(item.id).toEqual(expect.any(Number))
  expectImage(item.img)
  if (item.icon !== '') expectImage(item.icon)
  if (item.iconLink !== '') expectLink(item.iconLink)
  for (const field of ['title', 'description', 'btnName']) expectLocalized(item, field)
  expect(item.description).toMatch(/^<p>.*<\/p>$/)
  expectLink(item.btnLink)
}

describe('GET get-home-page', () => {
  it('answers banners per language, about, services, enterprises and founders', async () => {
    const home = await getPayload('get-home-page')
    expectOnlyFields(home, [
      'banner',
      'aboutHome',
      'servicesTitle',
      'servicesSubTitle',
      'servicesHome',
      'enterprisesTitle',
      'enterprisesSubTitle',
      'enterprisesBtnName',
      'enterprisesBtnLink',
      'enterprisesHome',
      'foundersTitle',
      'foundersBtnName',
      'foundersBtnLink',
      'foundersHome',
    ])
    for (const [list, script] of [
      ['banner', /^[^\u0400-\u04ff\u0531-\u0587]+$/s],
      ['ru_banner', /[\u0400-\u04ff]/],
      ['arm_banner', /[\u0531-\u0587]/],
    ] as const) {
      const banners = asList(home[list])
      expect(banners.length).toBeGreaterThanOrEqual(1)
      expect(banners.length).toBeLessThanOrEqual(2)
      for (const banner of banners) {
        expect(Object.keys(banner).sort()).toEqual([...BANNER].sort())
        expectImage(banner.img)
        expect(banner.title).toMatch(script)
        expect(banner.description).toMatch(/^<p>.*<strong>.*<\/p>$/)
        expectLink(banner.btnLink)
      }
    }
    const about = home.aboutHome as Json
    expectOnlyFields(about, BANNER)
    expectImage(about.img)
    for (const field of ['title', 'description', 'btnName']) expectLocalized(about, field)
    for (const field of [
      'servicesTitle',
      'servicesSubTitle',
      'enterprisesTitle',
      'enterprisesSubTitle',
      'enterprisesBtnName',
      'foundersTitle',
      'foundersBtnName',
    ]) {
      expectLocalized(home, field)
    }
    expect(home.enterprisesBtnLink).toBe('/enterprises')
    expectLink(home.foundersBtnLink)
  })

  it('lists four or more services with icons', async () => {
    const services = asList((await getPayload('get-home-page')).servicesHome)
    expect(services.length).toBeGreaterThanOrEqual(4)
    for (const service of services) {
      expectOnlyFields(service, ['img', 'title', 'description'])
      expect(service.img).toMatch(/^\/images\/services\/.+\.png$/)
      expectLocalized(service, 'title')
      expectLocalized(service, 'description')
    }
  })

  it('lists five enterprises, so the home page shows the carousel, with external and internal links', async () => {
    const enterprises = asList((await getPayload('get-home-page')).enterprisesHome)
    expect(enterprises).toHaveLength(5)
    enterprises.forEach(expectEnterprise)
    expect(enterprises.some((item) => String(item.iconLink).startsWith('https://'))).toBe(true)
    expect(enterprises.some((item) => item.btnLink === '/enterprises')).toBe(true)
    expect(new Set(enterprises.map((item) => item.id)).size).toBe(5)
  })

  it('lists three founders with portraits', async () => {
    const founders = asList((await getPayload('get-home-page')).foundersHome)
    expect(founders).toHaveLength(3)
    for (const founder of founders) {
      expectOnlyFields(founder, ['id', 'img', 'title'])
      expect(founder.img).toMatch(/^\/images\/founders\/.+\.jpg$/)
      expectLocalized(founder, 'title')
    }
  })
})

describe('GET get-about-page', () => {
  it('answers every about field, missions and partner logos', async () => {
    const about = await getPayload('get-about-page')
    expectOnlyFields(about, [
      'title',
      'description',
      'titleDescSection',
      'firstBanner',
      'secondBanner',
      'titleMission',
      'subTitleMission',
      'descriptionMission',
      'missions',
      'thirdImage',
      'thirdBanner',
    ])
    for (const field of [
      'title',
      'description',
      'titleMission',
      'subTitleMission',
      'descriptionMission',
    ])
      expectLocalized(about, field)
    const quote = about.titleDescSection as Json
    expectOnlyFields(quote, ['img', 'description'])
    expectImage(quote.img)
    expectLocalized(quote, 'description')
    const first = about.firstBanner as Json
    expectOnlyFields(first, ['img', 'titleBanner', 'description'])
    expectImage(first.img)
    expectLocalized(first, 'titleBanner')
    expectLocalized(first, 'description')
    expect(Object.keys(about.secondBanner as Json)).toEqual(['img'])
    expectImage((about.secondBanner as Json).img)
    const third = about.thirdImage as Json
    expectOnlyFields(third, ['img', 'description'])
    expectImage(third.img)
    expectLocalized(third, 'description')

    const missions = asList(about.missions)
    expect(missions.length).toBeGreaterThanOrEqual(3)
    expect(missions.length).toBeLessThanOrEqual(4)
    for (const mission of missions) {
      expectOnlyFields(mission, ['id', 'img', 'title', 'description'])
      expectImage(mission.img)
      expectLocalized(mission, 'title')
      expectLocalized(mission, 'description')
    }
    const partners = asList(about.thirdBanner)
    expect(partners.length).toBeGreaterThanOrEqual(4)
    expect(partners.length).toBeLessThanOrEqual(5)
    for (const partner of partners) {
      expectOnlyFields(partner, ['id', 'img', 'imgLink', 'title'])
      expect(partner.img).toMatch(/^\/images\/partners\/.+\.png$/)
      expect(partner.imgLink).toMatch(/^https:\/\//)
      expectLocalized(partner, 'title')
    }
  })
})

describe('GET get-enterprises-page', () => {
  it('answers the banner and five enterprises', async () => {
    const page = await getPayload('get-enterprises-page')
    expectOnlyFields(page, ['banner', 'enterprises'])
    const banner = page.banner as Json
    expectOnlyFields(banner, ['img', 'titleBanner', 'description'])
    expectImage(banner.img)
    expectLocalized(banner, 'titleBanner')
    expectLocalized(banner, 'description')
    const enterprises = asList(page.enterprises)
    expect(enterprises).toHaveLength(5)
    enterprises.forEach(expectEnterprise)
  })
})

describe('GET contact-us', () => {
  it('answers contact data, social links and the localized form texts', async () => {
    const contact = await getPayload('contact-us')
    const social = [
      'facebook',
      'instagram',
      'linkedin',
      'twitter',
      'youtube',
      'pinterest',
      'tiktok',
    ]
    const localized = [
      'phoneTitle',
      'emailTitle',
      'address',
      'locationTitle',
      'description',
      'bannerDesc',
      'titleContact',
      'contactFormTitle',
      'nameLabel',
      'namePlaceholder',
      'emailLabel',
      'messageLabel',
      'messagePlaceholder',
      'sendingText',
      'sendButtonText',
    ]
    expectOnlyFields(contact, [
      'phoneNumber',
      'contactEmail',
      'firstBanner',
      'secondBanner',
      'emailPlaceholder',
      ...social,
      ...localized,
    ])
    expect(contact.phoneNumber).toMatch(/^\+374 [\d ]+$/)
    expect(contact.contactEmail).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/)
    expect(contact.address).toContain('Yerevan')
    for (const field of localized) expectLocalized(contact, field)
    expectLocalized(contact, 'emailPlaceholder', { anyScript: true })
    for (const field of ['facebook', 'instagram', 'linkedin', 'youtube'])
      expect(contact[field]).toMatch(/^https:\/\/www\.[a-z]+\.com\//)
    for (const field of ['twitter', 'pinterest', 'tiktok']) expect(contact[field]).toBe('')
    expectImage(contact.firstBanner)
    expectImage(contact.secondBanner)
    expect(contact.sendingText).toBe('Sending...')
    expect(contact.sendButtonText).toBe('Send Message')
  })
})

describe('GET navbar-data', () => {
  it('answers the four link labels in three languages', async () => {
    const navbar = await getPayload('navbar-data')
    expect(Object.keys(navbar)).toHaveLength(12)
    for (const field of ['home', 'about', 'enterprises', 'contactUs'])
      expectLocalized(navbar, field)
  })
})

describe('GET page-meta-data', () => {
  for (const page of ['/', '/about', '/enterprises', '/contact-us']) {
    it(`answers title, description, keywords and the shared image for ${page}`, async () => {
      const meta = await getPayload(`page-meta-data?path=site&page=${encodeURIComponent(page)}`)
      expectOnlyFields(meta, ['title', 'description', 'keywords', 'image'])
      for (const field of ['title', 'description', 'keywords']) expectLocalized(meta, field)
      expect(meta.image).toBe('/images/og/erebuni-development.jpg')
    })
  }
})

describe('seed images', () => {
  it('names only images that exist in public/', () => {
    expect(env.TEST_CONTENT_MISSING_IMAGES).toEqual([])
  })
})
