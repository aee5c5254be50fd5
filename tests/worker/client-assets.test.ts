/**
 * What a page asks the browser to fetch before its first paint (src/views/assets.tsx,
 * src/views/island.tsx; docs/decisions/0001-client-islands.md): the page's stylesheet arrives inside
 * the HTML, with every rule its markup needs and none that only other pages need, the only script is the small entry module, and nothing else competes with the hero
 * image: its language's fonts are preloaded at the lowest priority, no island module is preloaded,
 * no island stylesheet is in the head.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { clientManifest } from '../../src/generated/client-manifest'
import { FONT_SUBSETS, stylesheetFor } from '../../src/views/assets'
import { splitLanguagePrefix } from '../../src/shared/languages'
import { select } from '../support/worker/views'
import { fetchPage } from '../support/worker/worker'
import { PAGE_ADDRESSES } from '../support/page-addresses'

const PAGES = [
  '/',
  '/about',
  '/enterprises',
  '/contact-us',
  '/en',
  '/en/contact-us',
  '/ru',
  '/ru/about',
]

async function headOf(path: string): Promise<string> {
  const response = await fetchPage(path, env)
  expect(response.status).toBe(200)
  const html = await response.text()
  return html.slice(0, html.indexOf('</head>'))
}

describe('the document head', () => {
  it.each(PAGES)('%s inlines the stylesheet of its page and links no stylesheet', async (path) => {
    const head = await headOf(path)
    const styles = await select(head, 'style')
    expect(styles).toHaveLength(1)
    // The build's stylesheet for this page, fonts included, unchanged.
    const css = stylesheetFor(path.replace(/^\/(en|ru)(?=\/|$)/, '') || '/')
    expect(head).toContain(`<style>${css}</style>`)
    expect(css).toContain('@font-face')
    expect(await select(head, 'link[rel="stylesheet"]')).toEqual([])
  })

  it.each(PAGES)(
    "%s preloads its language's font files at the lowest priority, each one its stylesheet names",
    async (path) => {
      const head = await headOf(path)
      const { lng, path: pageKey } = splitLanguagePrefix(path)
      const fonts = await select(head, 'link[as="font"]')
      expect(fonts.map((link) => link.attrs)).toEqual(
        FONT_SUBSETS[lng].map((subset) => ({
          rel: 'preload',
          as: 'font',
          type: 'font/woff2',
          crossorigin: 'anonymous',
          href: clientManifest.fonts[subset],
          fetchpriority: 'low',
        }))
      )
      // The very files the @font-face rules name, so the faces use what was preloaded.
      for (const link of fonts)
        expect(stylesheetFor(pageKey)).toContain(`url("${link.attrs.href}")`)
    }
  )

  it.each(PAGES)(
    '%s loads one entry module and preloads neither island modules nor the hydration runtime',
    async (path) => {
      const head = await headOf(path)
      const scripts = await select(head, 'script[src]')
      // The entry names the hydration runtime it prefetches when idle (decision 0021).
      expect(scripts.map((script) => script.attrs)).toEqual([
        {
          type: 'module',
          src: clientManifest.entry,
          'data-hydration-runtime': clientManifest.hydrate.join(' '),
        },
      ])
      expect(await select(head, 'link[rel="prefetch"]')).toEqual([])
      const preloaded = (await select(head, 'link[rel="modulepreload"]')).map(
        (link) => link.attrs.href
      )
      expect(preloaded).toEqual(clientManifest.entryPreload)
    }
  )
})

/** The class names a stylesheet's selectors name. */
function classesStyledBy(css: string): Set<string> {
  return new Set(
    [...css.replace(/url\([^)]*\)/g, '').matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map(
      (match) => match[1]!
    )
  )
}

describe("each page's stylesheet", () => {
  const styledAnywhere = new Set(
    Object.values(clientManifest.stylesheets).flatMap((css) => [...classesStyledBy(css)])
  )

  it.each([...PAGE_ADDRESSES, '/no-such-page', '/ru/no-such-page'])(
    '%s: styles every class its markup uses that the site styles',
    async (path) => {
      const response = await fetchPage(path, env)
      const html = await response.text()
      const css = (await select(html, 'style'))[0]?.text ?? ''
      const styled = classesStyledBy(css)
      const used = new Set(
        [...html.matchAll(/\sclass="([^"]*)"/g)]
          .flatMap((match) => match[1]!.split(/\s+/))
          .filter(Boolean)
      )
      const unstyled = [...used].filter((name) => styledAnywhere.has(name) && !styled.has(name))
      expect(used.size).toBeGreaterThan(20)
      expect(unstyled).toEqual([])
    }
  )

  it('leaves out what only other pages use', () => {
    const { stylesheets } = clientManifest
    const has = (page: keyof typeof stylesheets, rule: string) => stylesheets[page].includes(rule)
    expect({
      homeServices: has('/', '.service-card{'),
      homeContactForm: has('/', '.contact-form{'),
      homeMission: has('/', '.mission-grid{'),
      contactForm: has('/contact-us', '.contact-form{'),
      contactServices: has('/contact-us', '.service-card{'),
      aboutMission: has('/about', '.mission-grid{'),
      enterprisesRows: has('/enterprises', '.feature-rows{'),
      otherErrorView: has('other', '.error-view{'),
      everyErrorView: Object.keys(stylesheets).every((page) =>
        has(page as keyof typeof stylesheets, '.error-view{')
      ),
    }).toEqual({
      homeServices: true,
      homeContactForm: false,
      homeMission: false,
      contactForm: true,
      contactServices: false,
      aboutMission: true,
      enterprisesRows: true,
      otherErrorView: true,
      everyErrorView: true,
    })
  })
})

describe('island markers', () => {
  it('name the stylesheets of an island that has some, for the client to load with it', async () => {
    const html = await (await fetchPage('/en', env)).text()
    const [carousel] = await select(html, '[data-island="carousel"]')
    expect(carousel?.attrs['data-island-css']).toBe(clientManifest.islands.carousel.css.join(' '))
    expect(clientManifest.islands.carousel.css.length).toBeGreaterThan(0)
  })

  it('carry no stylesheet attribute for islands without CSS', async () => {
    const html = await (await fetchPage('/en', env)).text()
    const [dropdown] = await select(html, '[data-island="language-dropdown"]')
    expect(dropdown?.attrs).toEqual({ 'data-island': 'language-dropdown' })
  })
})
