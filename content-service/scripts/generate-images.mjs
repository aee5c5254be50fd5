#!/usr/bin/env node
/**
 * Regenerates every seed picture in public/ (the files are committed; nothing runs this at
 * build or start time): node content-service/scripts/generate-images.mjs
 *
 * Needs ImageMagick 6 or 7 (`apt-get install -y imagemagick`) and the DejaVu and URW base35
 * fonts that come with it on Debian. Output is deterministic: every scene has a fixed seed.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  renderAvatar,
  renderFavicon,
  renderIcon,
  renderLogo,
  renderPartner,
  renderSocialCard,
} from './images/badges.mjs'
import { renderBanner, SCENES } from './images/banners.mjs'
import { CARDS, DEFAULT_CARDS, renderCard } from './images/cards.mjs'
import { C } from './images/magick.mjs'

const PUBLIC = path.resolve(fileURLToPath(import.meta.url), '../../../public')
const out = (relative) => {
  const file = path.join(PUBLIC, relative)
  mkdirSync(path.dirname(file), { recursive: true })
  return file
}

const { 'default-banner': defaultBanner, 'og-base': ogBase, ...banners } = SCENES
for (const [name, scene] of Object.entries(banners))
  renderBanner(out(`images/banners/${name}.jpg`), scene)
renderBanner(out('default-banner.jpg'), defaultBanner)

for (const [name, card] of Object.entries(CARDS)) renderCard(out(`images/${name}.jpg`), card)
for (const [name, card] of Object.entries(DEFAULT_CARDS)) renderCard(out(`${name}.jpg`), card)

const founders = {
  'aram-petrosyan': {
    ring: C.tuff300,
    skin: '#E8C1A0',
    shirt: C.slate700,
    hair: '#3A2A22',
    style: 'short',
  },
  'narine-hakobyan': {
    ring: C.slate300,
    skin: '#EDC9AA',
    shirt: C.tuff600,
    hair: '#2B1D18',
    style: 'long',
  },
  'davit-sargsyan': {
    ring: C.sage,
    skin: '#DDB393',
    shirt: C.slate900,
    hair: '#9A958F',
    style: 'grey',
  },
}
for (const [name, look] of Object.entries(founders))
  renderAvatar(out(`images/founders/${name}.jpg`), { bg: C.cream, ...look })

for (const glyph of ['design', 'construction', 'renovation', 'management'])
  renderIcon(out(`images/services/${glyph}.png`), glyph)
for (const glyph of ['pin', 'award', 'plan'])
  renderIcon(out(`images/icons/${glyph}.png`), glyph, { disc: C.slate700, stroke: C.cream })
renderIcon(out('default-service-icon.png'), 'building', { disc: C.cream2, stroke: C.slate500 })

const partners = {
  'ararat-stone': {
    name: 'Ararat Stone',
    sub: 'Tuff & basalt quarry',
    mark: 'mountain',
    color: C.tuff600,
  },
  'hayk-engineering': {
    name: 'Hayk Engineering',
    sub: 'Structural design',
    mark: 'hexagon',
    color: C.slate500,
  },
  'yerevan-glassworks': {
    name: 'Yerevan Glass',
    sub: 'Facades & glazing',
    mark: 'grid',
    color: C.slate700,
  },
  'green-build-armenia': {
    name: 'Green Build AM',
    sub: 'Energy efficiency',
    mark: 'leaf',
    color: '#5E7A5A',
  },
  'kentron-capital': {
    name: 'Kentron Capital',
    sub: 'Project finance',
    mark: 'columns',
    color: C.tuff800,
  },
}
for (const [name, partner] of Object.entries(partners))
  renderPartner(out(`images/partners/${name}.png`), partner)

renderLogo(out('logo.png'))
renderLogo(out('logo-white.png'), { white: true })
const scratch = path.join(tmpdir(), `erebuni-images-${process.pid}`)
mkdirSync(scratch, { recursive: true })
renderFavicon(out('favicon.ico'), path.join(scratch, 'favicon.png'))
renderBanner(path.join(scratch, 'og-base.jpg'), ogBase, { width: 1200, height: 630 })
renderSocialCard(out('images/og/erebuni-development.jpg'), path.join(scratch, 'og-base.jpg'))
rmSync(scratch, { recursive: true, force: true })

let total = 0
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) walk(file)
    else if (/\.(jpg|png|ico)$/.test(entry.name) && !file.includes(`${path.sep}assets${path.sep}`))
      total += statSync(file).size
  }
}
walk(PUBLIC)
console.log(
  `images written to ${path.relative(process.cwd(), PUBLIC) || '.'}: ${(total / 1024).toFixed(0)} KB in all`
)
