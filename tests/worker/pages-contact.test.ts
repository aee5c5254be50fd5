/**
 * The contact page: served by the worker from the seeded reference service in each language, and
 * the view (src/views/pages/contact-page.tsx) with hand-made payloads for the banner, the form slot
 * beside or without the second banner, contact cards and social links.
 */
import { createElement } from 'react'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import seed from '../../content-service/seed/contact-us.json'
import { ContactDataSchema } from '../../src/content/schemas'
import { getT } from '../../src/shared/i18n'
import { LANGUAGES, type Lng } from '../../src/shared/languages'
import { ContactPage } from '../../src/views/pages/contact-page'
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
  phoneNumber: '+374 10 123 456',
  phoneTitle: 'Call us',
  contactEmail: 'info@erebuni.example.am',
  emailTitle: 'Write to us',
  address: '12 Tigran Mets Ave, Yerevan',
  arm_address: 'Տիգրան Մեծի պող. 12, Երևան',
  locationTitle: 'Visit us',
  description: '<p>We answer within a day.</p>',
  facebook: 'https://facebook.com/erebuni',
  instagram: 'https://instagram.com/erebuni',
  linkedin: '',
  twitter: 'javascript:alert(1)',
  youtube: 'https://youtube.com/@erebuni',
  firstBanner: '/images/contact.jpg',
  secondBanner: '/images/office.jpg',
  titleContact: 'Get in Touch',
  ru_titleContact: 'Свяжитесь с нами',
  bannerDesc: '<p>We would love to hear from you</p>',
}

function render(
  lng: Lng,
  payload: unknown = full,
  form = createElement('form', { id: 'the-form' })
) {
  return renderView(ContactPage, { lng, contact: ContactDataSchema.parse(payload), form })
}

describe('contact page view', () => {
  it.each(LANGUAGES)('has one h1 and headings in order in %s', async (lng) => {
    const html = render(lng)
    expect(await select(html, 'h1')).toHaveLength(1)
    expect(headingsInOrder(headingLevels(html))).toBe(true)
  })

  it('titles the banner from the content, then the dictionary', async () => {
    expect((await selectOne(render('ru'), 'h1'))?.text).toBe('Свяжитесь с нами')
    expect((await selectOne(render('hy', {}), 'h1'))?.text).toBe(getT('hy')('contact.title'))
  })

  it('uses the default banner when firstBanner is missing', async () => {
    expect(
      imageSource((await selectOne(render('en'), '.page-banner__image'))?.attrs.src ?? '')
    ).toBe('/images/contact.jpg')
    expect(
      imageSource(
        (await selectOne(render('en', { ...full, firstBanner: '' }), '.page-banner__image'))?.attrs
          .src ?? ''
      )
    ).toBe('/default-banner.jpg')
  })

  it('puts the form slot beside the second banner image when there is one', async () => {
    const html = render('en')
    expect((await selectOne(html, '.contact-layout'))?.attrs.class).toContain(
      'contact-layout--split'
    )
    const image = await selectOne(html, '.contact-layout__image')
    expect(imageSource(image?.attrs.src ?? '')).toBe('/images/office.jpg')
    expect(image?.attrs.loading).toBe('lazy')
    expect(html).toMatch(/<div class="contact-form-area"><form id="the-form"><\/form><\/div>/)
  })

  it('centres the form when there is no second banner', async () => {
    const html = render('en', { ...full, secondBanner: '' })
    expect((await selectOne(html, '.contact-layout'))?.attrs.class).toContain(
      'contact-layout--centred'
    )
    expect(html).not.toContain('contact-layout__image')
    expect(html).toContain('id="the-form"')
  })

  it('links phone with tel:, email with mailto: and the address to a maps search in a new tab', async () => {
    const links = await select(render('hy'), '.info-card__value')
    expect(links.map((link) => link.attrs.href)).toEqual([
      'tel:+37410123456',
      'mailto:info@erebuni.example.am',
      `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent('Տիգրան Մեծի պող. 12, Երևան')}`,
    ])
    expect(links.map((link) => link.text)).toEqual([
      '+374 10 123 456',
      'info@erebuni.example.am',
      'Տիգրան Մեծի պող. 12, Երևան',
    ])
    expect(links[2]?.attrs).toMatchObject({ target: '_blank', rel: 'noopener noreferrer' })
    expect(links[0]?.attrs.target).toBeUndefined()
  })

  it('shows each contact card only when it has a value, titled from the content or the dictionary', async () => {
    const html = render('ru', { phoneNumber: '+374 10 123 456' })
    expect((await select(html, '.info-card__title')).map((title) => title.text)).toEqual([
      getT('ru')('contact.phone'),
    ])
  })

  it("lists 'Follow Us' links only when present and safe, each opening in a new tab", async () => {
    const html = render('en')
    expect((await selectOne(html, '.follow-us__title'))?.text).toBe('Follow Us')
    const links = await select(html, '.social-links__link')
    expect(links.map((link) => link.attrs['aria-label'])).toEqual([
      'Facebook',
      'Instagram',
      'YouTube',
    ])
    expect(
      links.every(
        (link) => link.attrs.target === '_blank' && link.attrs.rel === 'noopener noreferrer'
      )
    ).toBe(true)
    expect(html).not.toContain('javascript:')
  })

  it('hides the contact-info block when there is nothing to show', () => {
    expect(render('en', { titleContact: 'Hi' })).not.toContain('contact-info')
  })
})

describe('contact page served from the seeded reference service', () => {
  const socials = [
    'facebook',
    'instagram',
    'linkedin',
    'twitter',
    'youtube',
    'pinterest',
    'tiktok',
  ] as const

  it.each([
    ['/contact-us', 'hy', seed.arm_titleContact],
    ['/en/contact-us', 'en', seed.titleContact],
    ['/ru/contact-us', 'ru', seed.ru_titleContact],
  ] as const)(
    'GET %s renders the banner, the form beside the image and the contact cards in %s',
    async (path, lng, title) => {
      const response = await fetchPage(path, env)
      expect(response.status).toBe(200)
      const html = await response.text()
      expect((await select(html, 'h1')).map((h1) => h1.text)).toEqual([title])
      expect(headingsInOrder(headingLevels(html))).toBe(true)
      expect((await selectOne(html, '.contact-layout'))?.attrs.class).toContain(
        'contact-layout--split'
      )
      expect(await select(html, '.contact-form-area form')).toHaveLength(1)
      expect(
        (await select(html, '.info-card__value')).map((link) => link.attrs.href?.split(':')[0])
      ).toEqual(['tel', 'mailto', 'https'])
      expect(await select(html, '.social-links__link')).toHaveLength(
        socials.filter((key) => seed[key]).length
      )
      expect(await pageProblems(html, lng)).toEqual([])
    }
  )
})
