/**
 * Step `page-weights` (`npm run bench:page-weights`): the HTML, CSS and JS bytes (gzip -6 of what
 * is served) of all 4 pages in all 3 languages, counting every script a page can run: those it
 * links, and, for each island it renders, the hydration runtime and the island's chunks and
 * stylesheets from the client manifest (src/generated/client-manifest.ts), which the entry loads.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { ROOT } from '../lib/local-site.mjs'
import { BROWSER, kb, PAGES, PREFIXES } from './shared.mjs'

export const step = {
  name: 'page-weights',
  title: 'Bytes per page (gzip)',
  usesSite: true,
  async run({ site, report }) {
    report.text(
      "\nBytes per page, gzip -6 of what is served. HTML includes the inlined site CSS; CSS is that plus the islands' " +
        'stylesheets; JS is everything the page can run: the entry, the hydration runtime, the islands it renders and the ' +
        'telemetry reporter. Load JS is what runs before the page is idle: the entry and the chunks it imports. At load only the entry runs; after it, the reporter, and the hydration runtime is prefetched ' +
        "when idle; an island's chunk loads and React runs only when a visitor reaches for an island (decision 0021).\n"
    )
    report.table(await pageWeights(site.origin))
  },
}

async function pageWeights(origin) {
  const gzipped = new Map()
  const sizeOf = async (url) => {
    if (!gzipped.has(url)) {
      const response = await fetch(url, { headers: BROWSER })
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`)
      gzipped.set(url, gzipSync(Buffer.from(await response.arrayBuffer()), { level: 6 }).byteLength)
    }
    return gzipped.get(url)
  }
  const rows = []
  for (const prefix of PREFIXES) {
    for (const page of PAGES) {
      const pagePath = page === '/' ? prefix || '/' : `${prefix}${page}`
      const response = await fetch(origin + pagePath, { headers: BROWSER })
      const html = await response.text()
      const links = linksOf(html)
      const sum = async (list) =>
        (await Promise.all(list.map((href) => sizeOf(new URL(href, origin).href)))).reduce(
          (a, b) => a + b,
          0
        )
      const inlineCss = [...html.matchAll(/<style>([^<]*)<\/style>/g)].reduce(
        (total, [, css]) => total + gzipSync(Buffer.from(css), { level: 6 }).byteLength,
        0
      )
      const [css, js, loadJs] = [await sum(links.css), await sum(links.js), await sum(links.loadJs)]
      const htmlGzip = gzipSync(Buffer.from(html), { level: 6 }).byteLength
      rows.push({
        page: pagePath,
        status: response.status,
        'HTML KB': kb(htmlGzip),
        'CSS KB': kb(inlineCss + css),
        'load JS KB': kb(loadJs),
        'JS KB': kb(js),
        'total KB': kb(htmlGzip + css + js),
      })
    }
  }
  const served = await fetch(`${origin}/en`, { headers: BROWSER })
  console.log(
    `(the local runtime sends pages with Content-Encoding: ${served.headers.get('Content-Encoding') ?? 'none'})`
  )
  return rows
}

/**
 * The stylesheets and scripts a page can load: those it links (scripts, modulepreloads,
 * stylesheets; `loadJs`: the scripts among them, what runs at load), and, for each island it renders, the hydration runtime and the island's chunks and
 * stylesheets from the client manifest (src/generated/client-manifest.ts), which the entry loads.
 */
function linksOf(html) {
  const css = new Set()
  const js = new Set()
  for (const [tag] of html.matchAll(/<(?:link|script)\b[^>]*>/gi)) {
    const attr = (name) => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1]
    const rel = attr('rel')
    if (tag.startsWith('<script') && attr('src')) js.add(attr('src'))
    else if (rel === 'stylesheet' && attr('href')) css.add(attr('href'))
    else if (rel === 'modulepreload' && attr('href')) js.add(attr('href'))
  }
  // What runs at load: the entry and the chunks it imports (the page links them all).
  const loadJs = [...js]
  const manifest = clientManifest()
  // What the entry imports itself, and the telemetry reporter it loads on every page after the load event.
  if (js.size > 0)
    for (const href of [...(manifest.entryPreload ?? []), telemetryChunk()]) js.add(href)
  for (const [, name] of html.matchAll(/<div data-island="([\w-]+)"/g)) {
    for (const href of manifest.hydrate) js.add(href)
    for (const href of manifest.islands[name]?.js ?? []) js.add(href)
    for (const href of manifest.islands[name]?.css ?? []) css.add(href)
  }
  return { css: [...css], js: [...js], loadJs }
}

/** The telemetry reporter's chunk (client/telemetry/reporter.ts), which the manifest does not list. */
function telemetryChunk() {
  const name = readdirSync(path.join(ROOT, 'public/assets/chunks')).find((file) =>
    /^reporter-[\w-]+\.js$/.test(file)
  )
  if (!name)
    throw new Error(
      'the build wrote no telemetry reporter chunk (public/assets/chunks/reporter-*.js)'
    )
  return `/assets/chunks/${name}`
}

/** The manifest the build wrote (a TypeScript module holding one JSON object). */
function clientManifest() {
  const source = readFileSync(path.join(ROOT, 'src/generated/client-manifest.ts'), 'utf8')
  return JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1))
}
