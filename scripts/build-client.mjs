/**
 * Builds the browser side into public/assets/ with content-hashed names, and writes the manifest
 * the worker imports (src/generated/client-manifest.ts). Wrangler runs it as the custom build.
 *
 * - client/main.ts is the entry, small and free of React; every client/islands/*.tsx is an entry of
 *   its own, which main imports lazily with client/hydrate.tsx (React), so a page downloads only the
 *   islands it renders, with their CSS (Swiper's CSS lands in the carousel's file only).
 * - src/styles/site.css, which imports one file per part of src/views in cascade order, is bundled
 *   into one minified stylesheet per kind of page (PAGE_STYLES: the site.css files no other page
 *   uses are left out of it, in the same order), with the self-hosted Noto Sans faces appended, and
 *   goes into the manifest as text: the document inlines its page's, so first paint waits for no
 *   stylesheet request and the HTML stays within the first round trip's 14 KB where it can.
 */
import * as esbuild from 'esbuild'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const publicDir = join(root, 'public')
const outdir = join(publicDir, 'assets')
const manifestFile = join(root, 'src/generated/client-manifest.ts')

// `npm test` (scripts/run-tests.mjs) builds once, then sets SKIP_CLIENT_BUILD for its stages: the
// wrangler dev servers they start side by side would otherwise each rebuild (and delete) the same
// files under public/assets while the others serve them.
if (process.env.SKIP_CLIENT_BUILD === '1' && existsSync(manifestFile)) process.exit(0)

/**
 * The faces the site needs: Latin and Cyrillic from Noto Sans, Armenian from Noto Sans Armenian,
 * each subset one variable woff2 file (weight axis) that serves all three weights: a page downloads
 * one file per script it shows, not one per script and weight.
 */
const FONTS = [
  {
    pkg: '@fontsource-variable/noto-sans',
    family: 'Noto Sans',
    subsets: ['latin', 'latin-ext', 'cyrillic'],
  },
  {
    pkg: '@fontsource-variable/noto-sans-armenian',
    family: 'Noto Sans Armenian',
    subsets: ['armenian'],
  },
]
/** The lightest and the heaviest weight the stylesheet sets (400, 600 and 700 in between). */
const WEIGHTS = [400, 700]

/**
 * One @font-face per family and subset, naming its one variable file with the range of weights the
 * site uses (400 to 700): the browser sets the file's weight axis to each text's font-weight, as it
 * did with one face per weight, from a third as many faces to match in every layout. No `local()`
 * before the download: each local() name is a synchronous font lookup in the middle of the first
 * layout (on Linux and ChromeOS a round trip to the browser process), paid on every device that
 * does not have the face, which is nearly every one; a device that has it (Android, for Armenian)
 * downloads one small file instead (docs/decisions/0019-first-frame-fonts.md).
 */
function fontFaceRules() {
  return FONTS.flatMap(({ pkg, family, subsets }) => {
    const ranges = JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'unicode.json'), 'utf8'))
    return subsets.map((subset) => {
      const file = `./node_modules/${pkg}/files/${pkg.split('/')[1]}-${subset}-wght-normal.woff2`
      return `@font-face{font-family:'${family}';font-style:normal;font-display:swap;font-weight:${WEIGHTS[0]} ${WEIGHTS[1]};src:url(${file}) format('woff2');unicode-range:${ranges[subset]}}`
    })
  }).join('\n')
}

/**
 * The site.css files that only some pages use (relative to src/styles), by page kind; every other
 * file is in every page's stylesheet. A page kind is a page path without language prefix; 'other'
 * (404 and any other path) gets the files of no page. Error views can replace any page (a 503 on
 * /about), so their CSS is common.
 */
const PAGE_STYLES = {
  './sections/home-services.css': ['/'],
  './components/split.css': ['/', '/enterprises'],
  './pages/project-page.css': ['/enterprises/*'],
  './components/enterprise-row.css': ['/', '/enterprises'],
  './components/enterprise-carousel.css': ['/'],
  './sections/home-founders.css': ['/'],
  './pages/about-page.css': ['/about'],
  './sections/about-mission.css': ['/about'],
  './sections/about-partners.css': ['/about'],
  './pages/contact-page.css': ['/contact-us'],
  './sections/contact-info.css': ['/contact-us'],
  './components/contact-form.css': ['/contact-us'],
}
/**
 * The site.css files only preview pages use (the preview bar, src/views/layout/preview-bar.tsx): in
 * no page kind's stylesheet, so visitors download none of it, but in a stylesheet of their own
 * that a preview page inlines after its page's (`previewStylesheet` in the manifest).
 */
const PREVIEW_STYLES = ['./layout/preview-bar.css']
/** '/enterprises/*': every project's page (src/content/projects.ts). */
const PAGE_KINDS = {
  home: '/',
  about: '/about',
  enterprises: '/enterprises',
  project: '/enterprises/*',
  contact: '/contact-us',
  other: null,
}

/** The stylesheets built: one per page kind, and the preview pages' own. */
const STYLESHEET_KINDS = [...Object.keys(PAGE_KINDS), 'preview']

/** site.css's imports in cascade order. */
const siteImports = [
  ...readFileSync(join(root, 'src/styles/site.css'), 'utf8').matchAll(
    /^@import ["']([^"']+)["'];$/gm
  ),
].map((match) => match[1])
for (const file of [...Object.keys(PAGE_STYLES), ...PREVIEW_STYLES]) {
  if (!siteImports.includes(file))
    throw new Error(
      `build-client: PAGE_STYLES names ${file}, which src/styles/site.css does not import`
    )
}

/**
 * One stylesheet entry per page kind (`stylesheet:home`, ...): the site.css files that page uses,
 * the island markers' layout rule, then the font faces.
 */
const siteStylesheets = {
  name: 'site-stylesheets',
  setup(build) {
    build.onResolve({ filter: /^stylesheet:/ }, ({ path }) => ({
      path: path.slice('stylesheet:'.length),
      namespace: 'site-stylesheet',
    }))
    // Absolute URLs in CSS (url(/default-banner.jpg)) name files in public/, served as they are.
    build.onResolve({ filter: /^\// }, ({ path, kind }) =>
      kind === 'url-token' ? { path, external: true } : undefined
    )
    build.onLoad({ filter: /.*/, namespace: 'site-stylesheet' }, ({ path: kind }) => {
      if (kind === 'preview')
        return {
          loader: 'css',
          resolveDir: root,
          contents: PREVIEW_STYLES.map((file) => `@import "./src/styles/${file.slice(2)}";`).join(
            '\n'
          ),
        }
      const page = PAGE_KINDS[kind]
      const files = siteImports.filter(
        (file) =>
          !PREVIEW_STYLES.includes(file) && (!PAGE_STYLES[file] || PAGE_STYLES[file].includes(page))
      )
      return {
        loader: 'css',
        resolveDir: root,
        watchFiles: [join(root, 'src/styles/site.css')],
        // An island's marker element (src/views/island.tsx) must not add a box to the layout.
        contents: `${files.map((file) => `@import "./src/styles/${file.slice(2)}";`).join('\n')}\n[data-island]{display:contents}\n${fontFaceRules()}`,
      }
    })
  },
}

const islands = readdirSync(join(root, 'client/islands'))
  .filter((file) => file.endsWith('.tsx'))
  .map((file) => file.slice(0, -'.tsx'.length))
  .sort()

const started = performance.now()
// public/assets is not emptied first: a running `wrangler dev` (or a second one, which builds on
// start) keeps serving the files while this build writes them. Hashed names mean an unchanged file
// is rewritten with the same bytes; files of an older build are removed once this one is written.
const { metafile } = await esbuild.build({
  absWorkingDir: root,
  entryPoints: [
    { in: 'client/main.ts', out: 'main' },
    { in: 'client/hydrate.tsx', out: 'hydrate' },
    ...islands.map((name) => ({ in: `client/islands/${name}.tsx`, out: name })),
    ...STYLESHEET_KINDS.map((kind) => ({ in: `stylesheet:${kind}`, out: `site-${kind}` })),
  ],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  outdir,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: 'fonts/[name]-[hash]',
  publicPath: '/assets/',
  loader: { '.woff2': 'file' },
  plugins: [siteStylesheets],
  metafile: true,
  logLevel: 'warning',
})

const outputs = metafile.outputs
const toUrl = (file) => `/${relative(publicDir, join(root, file)).split('\\').join('/')}`
function outputOf(entryPoint) {
  const found = Object.keys(outputs).find(
    (file) => outputs[file].entryPoint === entryPoint && file.endsWith('.js')
  )
  if (!found) throw new Error(`build-client: no output for ${entryPoint}`)
  return found
}
/** The chunks a file imports statically, directly or not: what modulepreload should fetch. */
function staticImports(file, seen = new Set()) {
  for (const { path, kind } of outputs[file].imports) {
    if (kind === 'import-statement' && !seen.has(path)) staticImports(path, seen.add(path))
  }
  return seen
}

const main = outputOf('client/main.ts')
const hydrate = outputOf('client/hydrate.tsx')
const mainChunks = staticImports(main)
// esbuild gathers the CSS of lazily imported islands into the entry's CSS too, by design
// (https://github.com/evanw/esbuild/issues/1590). Each island's own file carries it: drop the copy.
if (outputs[main].cssBundle) rmSync(join(root, outputs[main].cssBundle))
/** Each page kind's stylesheet text, read from the build and deleted: the manifest carries it. */
const stylesheets = Object.fromEntries(
  STYLESHEET_KINDS.map((kind) => {
    const css = Object.keys(outputs).find(
      (file) => outputs[file].entryPoint === `site-stylesheet:${kind}`
    )
    if (!css) throw new Error(`build-client: no stylesheet was emitted for ${kind}`)
    const text = readFileSync(join(root, css), 'utf8').trim()
    // The text goes inside <style>: it must not be able to close that element.
    if (/<\/style/i.test(text))
      throw new Error(`build-client: the ${kind} stylesheet contains "</style"`)
    rmSync(join(root, css))
    delete outputs[css]
    return [kind, text]
  })
)
removeStaleOutputs(new Set(Object.keys(outputs).map((file) => join(root, file))))

/** Deletes the files under public/assets that this build did not write (an older build's). */
function removeStaleOutputs(written) {
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) visit(path)
      else if (!written.has(path)) rmSync(path, { force: true })
    }
  }
  visit(outdir)
}

/** Per island: its chunk plus the chunks it imports that the entry has not loaded, and its CSS. */
const islandFiles = islands.map((name) => {
  const file = outputOf(`client/islands/${name}.tsx`)
  const bundle = outputs[file].cssBundle
  return {
    name,
    js: [file, ...staticImports(file)].filter((chunk) => !mainChunks.has(chunk)),
    css: bundle ? [bundle] : [],
  }
})

const hydrateFiles = [hydrate, ...staticImports(hydrate)].filter((chunk) => !mainChunks.has(chunk))

/** Each subset's font file, by subset name: a page preloads its language's (src/views/assets.tsx). */
const fontFiles = Object.fromEntries(
  FONTS.flatMap(({ pkg, subsets }) =>
    subsets.map((subset) => {
      const stem = `fonts/${pkg.split('/')[1]}-${subset}-wght-normal-`
      const file = Object.keys(outputs).find(
        (output) => output.includes(stem) && output.endsWith('.woff2')
      )
      if (!file) throw new Error(`build-client: no font file was emitted for ${subset}`)
      return [subset, toUrl(file)]
    })
  )
)

const manifest = {
  entry: toUrl(main),
  entryPreload: [...mainChunks].map(toUrl),
  /** The entry's lazily imported hydration runtime (React): what every island also needs. */
  hydrate: hydrateFiles.map(toUrl),
  /** The inlined stylesheet of each page kind, by the page's path without language prefix ('other': any other). */
  stylesheets: Object.fromEntries(
    Object.entries(PAGE_KINDS).map(([kind, page]) => [page ?? 'other', stylesheets[kind]])
  ),
  /** The preview pages' own rules (PREVIEW_STYLES), inlined after the page's stylesheet. */
  previewStylesheet: stylesheets.preview,
  islands: Object.fromEntries(
    islandFiles.map(({ name, js, css }) => [name, { js: js.map(toUrl), css: css.map(toUrl) }])
  ),
  /** Each font subset's file (the inlined stylesheets' @font-face rules name the same files). */
  fonts: fontFiles,
}

const source = `// Generated by scripts/build-client.mjs: the hashed client files. Do not edit.
/** Where the client bundle lives: see docs/decisions/0001-client-islands.md. */
export const clientManifest = ${JSON.stringify(manifest, null, 2)} as const
`
mkdirSync(dirname(manifestFile), { recursive: true })
let previous = ''
try {
  previous = readFileSync(manifestFile, 'utf8')
} catch {}
// An unchanged manifest is not rewritten, so wrangler dev does not reload the worker for nothing.
if (source !== previous) writeFileSync(manifestFile, source)

const gzipKb = (files) =>
  (files.reduce((sum, f) => sum + gzipSync(readFileSync(join(root, f))).length, 0) / 1024).toFixed(
    1
  )
const sizes = [
  `main ${gzipKb([main, ...mainChunks])} KB`,
  `hydrate ${gzipKb(hydrateFiles)} KB`,
  ...islandFiles.map(
    ({ name, js, css }) => `${name} ${gzipKb(js)} KB${css.length ? ` + css ${gzipKb(css)} KB` : ''}`
  ),
  `site.css ${Object.entries(stylesheets)
    .map(([kind, text]) => `${kind} ${(gzipSync(text).length / 1024).toFixed(1)}`)
    .join(' / ')} KB (inlined)`,
]
console.log(
  `client built in ${Math.round(performance.now() - started)} ms, gzip: ${sizes.join(', ')}`
)
