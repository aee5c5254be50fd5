/**
 * The one link helper (src/views/components/smart-link.tsx): external links open in a new tab with
 * no opener, internal links keep the visitor's language prefix, unsafe links are not links.
 */
import { createElement } from 'react'
import { describe, expect, it } from 'vitest'
import { linkProps, resolveLink, SmartLink } from '../../src/views/components/smart-link'
import { renderView } from '../support/worker/views'

describe('resolveLink', () => {
  it.each([
    ['https://example.am/x', 'ru', { href: 'https://example.am/x', external: true }],
    ['HTTP://example.am', 'en', { href: 'http://example.am/', external: true }],
    ['/about', 'hy', { href: '/about', external: false }],
    ['/about', 'en', { href: '/en/about', external: false }],
    ['/about?tab=1#team', 'ru', { href: '/ru/about?tab=1#team', external: false }],
    ['/en/about', 'ru', { href: '/ru/about', external: false }],
    ['/ru', 'hy', { href: '/', external: false }],
    ['/', 'ru', { href: '/ru', external: false }],
    ['enterprises', 'en', { href: '/en/enterprises', external: false }],
    ['mailto:info@example.am', 'ru', { href: 'mailto:info@example.am', external: false }],
    ['tel:+37410000000', 'en', { href: 'tel:+37410000000', external: false }],
    // Parsed as a site-relative address: the home page's section.
    ['#services', 'ru', { href: '/ru#services', external: false }],
    // An internal link stays internal after the language rewrite.
    ['/en//evil.example', 'hy', { href: '/evil.example', external: false }],
    ['/en/\\evil.example', 'hy', { href: '/evil.example', external: false }],
    ['/en/\t/evil.example', 'hy', { href: '/evil.example', external: false }],
    ['/ru//evil.example/x?a=1', 'en', { href: '/en/evil.example/x?a=1', external: false }],
    ['//evil.example', 'hy', { href: 'https://evil.example/', external: true }],
    ['/\\evil.example', 'hy', { href: 'https://evil.example/', external: true }],
  ] as const)('%s in %s', (href, lng, expected) => {
    expect(resolveLink(href, lng)).toEqual(expected)
  })

  it.each([
    '',
    '   ',
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    'data:text/html,x',
    'vbscript:x',
  ])('%j is no link', (href) => {
    expect(resolveLink(href, 'en')).toBeNull()
  })
})

describe('SmartLink', () => {
  it('renders an external link with target and rel', () => {
    expect(renderView(SmartLink, { href: 'https://example.am', lng: 'ru', children: 'Go' })).toBe(
      '<a href="https://example.am/" target="_blank" rel="noopener noreferrer">Go</a>'
    )
  })

  it('renders an internal link with the language prefix and no target', () => {
    expect(
      renderView(SmartLink, { href: '/contact-us', lng: 'en', children: 'Contact', className: 'x' })
    ).toBe('<a class="x" href="/en/contact-us">Contact</a>')
  })

  it('uses the fallback when the link is empty, and plain content when there is none', () => {
    expect(
      renderView(SmartLink, {
        href: '',
        lng: 'ru',
        fallback: '/enterprise-detail',
        children: 'More',
      })
    ).toBe('<a href="/ru/enterprise-detail">More</a>')
    expect(
      renderView(SmartLink, {
        href: 'javascript:alert(1)',
        lng: 'ru',
        children: createElement('b', null, 'x'),
      })
    ).toBe('<b>x</b>')
  })

  it('gives linkProps the same answer as the component', () => {
    expect(linkProps('https://x.example', 'hy')).toEqual({
      href: 'https://x.example/',
      target: '_blank',
      rel: 'noopener noreferrer',
    })
    expect(linkProps('/about', 'hy')).toEqual({ href: '/about' })
    expect(linkProps('javascript:x', 'hy')).toBeNull()
  })
})
