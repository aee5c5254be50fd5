/**
 * Recomputes the metric-matched fallback faces of src/styles/base/fallback-fonts.css: for each
 * fallback face, the `size-adjust` that gives the system font Noto Sans's (or Noto Sans
 * Armenian's) widths on this site's text, and the ascent, descent and line-gap overrides that give
 * it Noto's vertical metrics at that size. Run it when a font, the fallback list or the seed
 * content changes, and compare:
 *
 *   node scripts/font-metrics.mjs          # table: computed values next to those in the CSS
 *   node scripts/font-metrics.mjs --css    # the computed descriptors, to paste into the CSS
 *
 * Widths: the sum of the glyphs' advance widths (in em) over the seed content's text
 * (content-service/seed/*.json, HTML tags stripped), counting only the characters of the face's
 * unicode-range, in the languages whose text the face sets: en and ru for Latin and Cyrillic
 * letters, ru and hy for DejaVu's space, digits and punctuation (a fifth of those texts' characters,
 * which is why that face exists), hy for Armenian letters.
 * size-adjust = Noto's width / the fallback's width; a bold face serves 600 and 700, so it gets
 * the mean of Noto SemiBold's and Bold's ratios. Overrides = Noto's hhea ascender, descender and
 * line gap (what Chromium uses on Android and Linux) / size-adjust.
 *
 * Noto comes from @fontsource's static woff2 files (devDependencies; fontkit reads WOFF2): the site
 * serves @fontsource-variable's files, whose weight axis at 400, 600 and 700 renders these same
 * instances (in Chromium, the same advance widths and line height to 0.1 px at 100 px), but fontkit
 * cannot instantiate a variable WOFF2's weights. The system
 * fonts are read from /usr/share/fonts, ~/.fonts, or the folders in $FONT_DIRS (colon-separated);
 * on Debian: `apt-get install fonts-liberation fonts-dejavu-core fonts-roboto-unhinted`.
 * Liberation Sans stands in for Arial and Helvetica: it was drawn to Arial's advance widths.
 *
 * Against the stylesheet (2026-11-23: @fontsource 5.3.0; Debian bookworm's fonts-liberation
 * 1.07.4, fonts-dejavu-core 2.37, fonts-roboto-unhinted 2017-08-02): every size-adjust within 0.6
 * points but Armenian bold's, and the overrides follow from it. The
 * first measurement, which these numbers came from, recorded neither its text sample nor whether
 * it shaped the text, so small differences remain: the Arial faces were rounded to whole percent
 * (computed 105.6 and 103.4), and Noto Sans Armenian SemiBold/Bold measure 1.4% narrower than
 * DejaVu Sans Bold here (size-adjust 98.6%) where the stylesheet has 96.5%. The stylesheet keeps
 * its numbers until a change is checked for layout shift (`npm run bench`, Lighthouse CLS).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as fontkit from 'fontkit'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CSS_FILE = path.join(ROOT, 'src/styles/base/fallback-fonts.css')

const LATIN = 'U+0000-02FF, U+1E00-1EFF, U+2000-20CF, U+2100-21FF, U+2212-2215'
const CYRILLIC = 'U+0400-052F, U+1C80-1C8A, U+2116, U+2DE0-2DFF, U+A640-A69F'
const DEJAVU_LETTERS =
  'U+0041-005A, U+0061-007A, U+00C0-02FF, U+1E00-1EFF, U+20A0-20CF, U+2100-21FF, U+2212-2215'
const DEJAVU_PUNCTUATION = 'U+0020-0040, U+005B-0060, U+007B-00BF, U+2000-206F'
const ARMENIAN = 'U+0530-058F, U+FB13-FB17'
const EVERYTHING = 'U+0000-10FFFF'

const ARIAL = { 400: 'LiberationSans-Regular.ttf', 700: 'LiberationSans-Bold.ttf' }
const ROBOTO = { 400: 'Roboto-Regular.ttf', 700: 'Roboto-Bold.ttf' }
const DEJAVU = { 400: 'DejaVuSans.ttf', 700: 'DejaVuSans-Bold.ttf' }

/** The fallback faces of the stylesheet: family, the system font's files, unicode-range, the text it sets. */
const FACES = [
  { family: 'Noto Sans Fallback', files: ARIAL, range: null, languages: ['en', 'ru'] },
  { family: 'Noto Sans Fallback Roboto', files: ROBOTO, range: LATIN, languages: ['en', 'ru'] },
  { family: 'Noto Sans Fallback Roboto', files: ROBOTO, range: CYRILLIC, languages: ['en', 'ru'] },
  {
    family: 'Noto Sans Fallback DejaVu',
    files: DEJAVU,
    range: DEJAVU_LETTERS,
    languages: ['en', 'ru'],
  },
  {
    family: 'Noto Sans Fallback DejaVu',
    files: DEJAVU,
    range: DEJAVU_PUNCTUATION,
    languages: ['ru', 'hy'],
  },
  { family: 'Noto Sans Fallback DejaVu', files: DEJAVU, range: CYRILLIC, languages: ['en', 'ru'] },
  {
    family: 'Noto Sans Armenian Fallback',
    files: DEJAVU,
    range: ARMENIAN,
    languages: ['hy'],
    armenian: true,
  },
]
/** The stylesheet's two weights: 700 serves 600 and 700 alike, so it is matched to both. */
const WEIGHTS = { 400: [400], 700: [600, 700] }

const notoFiles = (weight) =>
  ['latin', 'latin-ext', 'cyrillic'].map(
    (subset) =>
      `node_modules/@fontsource/noto-sans/files/noto-sans-${subset}-${weight}-normal.woff2`
  )
const notoArmenianFiles = (weight) => [
  `node_modules/@fontsource/noto-sans-armenian/files/noto-sans-armenian-armenian-${weight}-normal.woff2`,
]

/** @param {string} spec e.g. 'U+0041-005A, U+2116' @returns {[number, number][]} */
function parseRange(spec) {
  return spec.split(',').map((part) => {
    const [from, to = from] = part.trim().replace(/^U\+/i, '').split('-')
    return [parseInt(from, 16), parseInt(to, 16)]
  })
}

/** The seed content's text by language (en fields, ru_ fields, arm_ fields), HTML tags stripped. */
function seedText() {
  const text = { en: [], ru: [], hy: [] }
  const walk = (value, key) => {
    if (typeof value === 'string') {
      const language = key.startsWith('ru_') ? 'ru' : key.startsWith('arm_') ? 'hy' : 'en'
      text[language].push(
        value
          .replace(/<[^>]*>/g, ' ')
          .replace(/&nbsp;/g, ' ')
          .replace(/&amp;/g, '&')
      )
    } else if (Array.isArray(value)) value.forEach((item) => walk(item, key))
    else if (value && typeof value === 'object')
      for (const [name, item] of Object.entries(value)) walk(item, name)
  }
  const dir = path.join(ROOT, 'content-service/seed')
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    walk(JSON.parse(readFileSync(path.join(dir, file), 'utf8')), '')
  }
  return text
}

/** The first file of that name under the font folders. */
function findSystemFont(name) {
  const dirs = [
    ...(process.env.FONT_DIRS?.split(':') ?? []),
    '/usr/share/fonts',
    path.join(homedir(), '.fonts'),
    path.join(homedir(), '.local/share/fonts'),
  ]
  const search = (dir) => {
    if (!existsSync(dir)) return null
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry)
      if (entry === name) return full
      if (statSync(full).isDirectory()) {
        const found = search(full)
        if (found) return found
      }
    }
    return null
  }
  for (const dir of dirs) {
    const found = search(dir)
    if (found) return found
  }
  throw new Error(
    `font-metrics: ${name} not found in ${dirs.join(', ')} (see this script's header for the packages)`
  )
}

/** Advance widths in em, summed over the characters of `text` in `ranges` that one of `fonts` has. */
function widthOf(fonts, text, ranges) {
  let width = 0
  for (const character of text) {
    const codePoint = character.codePointAt(0)
    if (!ranges.some(([from, to]) => codePoint >= from && codePoint <= to)) continue
    const font = fonts.find((candidate) => candidate.hasGlyphForCodePoint(codePoint))
    if (font) width += font.glyphForCodePoint(codePoint).advanceWidth / font.unitsPerEm
  }
  return width
}

const open = (file) => fontkit.openSync(path.isAbsolute(file) ? file : path.join(ROOT, file))
const percent = (ratio) => `${Math.round(ratio * 1000) / 10}%`

/** The computed descriptors of every face and weight. */
function computeFaces() {
  const text = seedText()
  return FACES.flatMap((face) =>
    Object.entries(WEIGHTS).map(([weight, notoWeights]) => {
      const sample = face.languages.flatMap((language) => text[language]).join('\n')
      const ranges = parseRange(face.range ?? EVERYTHING)
      const fallback = open(findSystemFont(face.files[weight]))
      const fallbackWidth = widthOf([fallback], sample, ranges)
      if (fallbackWidth === 0)
        throw new Error(`font-metrics: no text for ${face.family} ${face.range}`)
      const ratios = notoWeights.map((notoWeight) => {
        const noto = (face.armenian ? notoArmenianFiles : notoFiles)(notoWeight).map(open)
        return widthOf(noto, sample, ranges) / fallbackWidth
      })
      const sizeAdjust = ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length
      const reference = open((face.armenian ? notoArmenianFiles : notoFiles)(400)[0])
      const em = reference.unitsPerEm
      return {
        family: face.family,
        weight: Number(weight),
        range: face.range,
        descriptors: {
          'size-adjust': percent(sizeAdjust),
          'ascent-override': percent(reference.hhea.ascent / em / sizeAdjust),
          'descent-override': percent(Math.abs(reference.hhea.descent) / em / sizeAdjust),
          'line-gap-override': percent(reference.hhea.lineGap / em / sizeAdjust),
        },
      }
    })
  )
}

/** The descriptors of each @font-face of the stylesheet, keyed like computeFaces()'s results. */
function facesInStylesheet() {
  const css = readFileSync(CSS_FILE, 'utf8')
  const faces = new Map()
  for (const [, body] of css.matchAll(/@font-face\s*\{([^}]*)\}/g)) {
    const descriptors = Object.fromEntries(
      body
        .split(';')
        .map((line) => line.trim().match(/^([\w-]+)\s*:\s*(.+)$/))
        .filter(Boolean)
        .map(([, name, value]) => [name, value.trim()])
    )
    const family = descriptors['font-family']?.replace(/['"]/g, '')
    faces.set(
      `${family}|${descriptors['font-weight']}|${descriptors['unicode-range'] ?? ''}`,
      descriptors
    )
  }
  return faces
}

const computed = computeFaces()
if (process.argv.includes('--css')) {
  for (const { family, weight, range, descriptors } of computed) {
    console.log(`/* ${family} ${weight}${range ? `, ${range}` : ''} */`)
    for (const [name, value] of Object.entries(descriptors)) console.log(`  ${name}: ${value};`)
  }
} else {
  const current = facesInStylesheet()
  const rows = computed.map(({ family, weight, range, descriptors }) => {
    const inCss = current.get(`${family}|${weight}|${range ?? ''}`) ?? {}
    const cell = (name) => {
      const was = inCss[name]
      const now = descriptors[name]
      if (!was) return `${now} (not in CSS)`
      const delta = Math.round((parseFloat(now) - parseFloat(was)) * 10) / 10
      return delta === 0 ? now : `${now} (CSS ${was}, ${delta > 0 ? '+' : ''}${delta})`
    }
    return {
      face: `${family} ${weight}${range ? ` ${range.split(',')[0]}…` : ''}`,
      'size-adjust': cell('size-adjust'),
      ascent: cell('ascent-override'),
      descent: cell('descent-override'),
    }
  })
  console.table(rows)
  console.log(
    `Compared with ${path.relative(ROOT, CSS_FILE)}; --css prints the computed descriptors.`
  )
}
