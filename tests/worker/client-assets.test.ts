/**
 * What a page asks the browser to fetch before its first paint (src/views/assets.tsx,
 * src/views/island.tsx; docs/decisions/0001-client-islands.md): the site stylesheet arrives inside
 * the HTML, the only script is the small entry module, and nothing else competes with the hero
 * image: no font preload, no island module preload, no island stylesheet in the head.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { clientManifest } from '../../src/generated/client-manifest'
import { select } from './support/views'
import { fetchPage } from './support/worker'

const PAGES = ['/', '/about', '/enterprises', '/contact-us', '/en', '/en/contact-us', '/ru', '/ru/about']

async function headOf(path: string): Promise<string> {
  const response = await fetchPage(path, env)
  expect(response.status).toBe(200)
  const html = await response.text()
  return html.slice(0, html.indexOf('</head>'))
}

describe('the document head', () => {
  it.each(PAGES)('%s inlines the site stylesheet and links no stylesheet', async (path) => {
    const head = await headOf(path)
    const styles = await select(head, 'style')
    expect(styles).toHaveLength(1)
    // The build's whole stylesheet, fonts included, unchanged.
    expect(head).toContain(`<style>${clientManifest.stylesheet.css}</style>`)
    expect(clientManifest.stylesheet.css).toContain('@font-face')
    expect(await select(head, 'link[rel="stylesheet"]')).toEqual([])
  })

  it.each(PAGES)('%s loads one entry module and preloads neither fonts nor island modules', async (path) => {
    const head = await headOf(path)
    const scripts = await select(head, 'script[src]')
    expect(scripts.map((script) => script.attrs)).toEqual([{ type: 'module', src: clientManifest.entry }])
    expect(await select(head, 'link[as="font"]')).toEqual([])
    const preloaded = (await select(head, 'link[rel="modulepreload"]')).map((link) => link.attrs.href)
    expect(preloaded).toEqual(clientManifest.entryPreload)
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
