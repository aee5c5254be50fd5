/**
 * Small pictures: founder avatars (400x400), service and enterprise icons (128x128 PNG),
 * partner logos (240x120 PNG), the company logo (150x95 PNG, colour and white) and the favicon.
 */
import { q } from './shapes.mjs'
import { C, FONTS, draw, jpeg, magick, png } from './magick.mjs'

/** An abstract portrait: a head and shoulders on a coloured disc, hair by `style`. */
export function renderAvatar(file, { bg, ring, skin, shirt, hair, style }) {
  const hairShapes = {
    short: ['ellipse 200,150 74,62 180,360'],
    long: [
      'ellipse 200,160 84,78 180,360',
      'rectangle 116,160 150,280',
      'rectangle 250,160 284,280',
    ],
    grey: ['ellipse 200,146 70,54 180,360'],
  }
  const primitives = [
    `fill ${q(ring)}`,
    'circle 200,200 200,20',
    `fill ${q(shirt)}`,
    'ellipse 200,400 150,130 180,360',
    `fill ${q(hair)}`,
    ...hairShapes[style],
    `fill ${q(skin)}`,
    'rectangle 178,220 222,290',
    'ellipse 200,175 66,78 0,360',
    `fill ${q(hair)}`,
    ...(style === 'long'
      ? ['ellipse 200,120 70,34 180,360']
      : style === 'short'
        ? ['ellipse 200,116 62,28 180,360']
        : ['ellipse 200,112 52,18 180,360']),
  ]
  magick(['-size', '400x400', `xc:${bg}`, ...draw(primitives), ...jpeg(76), file])
}

/** Line glyphs on a tuff disc; each entry is MVG in a 128x128 box. */
const GLYPHS = {
  design: [
    'polygon 30,98 30,40 88,98',
    'polygon 42,86 42,68 60,86',
    'polygon 66,34 76,24 100,48 90,58',
    'line 90,58 96,64',
  ],
  construction: [
    'line 44,100 44,30',
    'line 36,30 100,30',
    'polyline 36,30 44,22 52,30',
    'line 86,30 86,62',
    'rectangle 78,62 94,74',
    'line 30,100 98,100',
  ],
  renovation: [
    'rectangle 34,34 86,56',
    'polyline 86,45 96,45 96,68 62,68 62,80',
    'rectangle 56,80 68,104',
  ],
  management: [
    'rectangle 38,34 90,104',
    'rectangle 52,26 76,40',
    'polyline 48,58 54,64 66,52',
    'line 72,60 82,60',
    'polyline 48,82 54,88 66,76',
    'line 72,84 82,84',
  ],
  building: [
    'rectangle 40,36 88,100',
    'line 52,50 60,50',
    'line 68,50 76,50',
    'line 52,64 60,64',
    'line 68,64 76,64',
    'rectangle 58,82 70,100',
    'line 28,100 100,100',
  ],
  pin: ['circle 64,54 64,28', 'circle 64,54 64,44', 'polyline 42,68 64,102 86,68'],
  award: [
    'circle 64,52 64,24',
    'polyline 50,74 42,104 56,96 64,108',
    'polyline 78,74 86,104 72,96 64,108',
    'polyline 54,52 61,59 75,45',
  ],
  plan: [
    'rectangle 32,30 96,98',
    'polyline 32,60 64,60 64,98',
    'line 64,46 96,46',
    'line 44,30 44,46',
  ],
}

/** A 128x128 icon: a glyph in `stroke` on a disc of `disc` (transparent corners). */
export function renderIcon(file, glyph, { disc = C.tuff100, stroke = C.tuff800 } = {}) {
  const primitives = [
    `fill ${q(disc)}`,
    'circle 64,64 64,2',
    'fill none',
    `stroke ${q(stroke)}`,
    'stroke-width 6',
    'stroke-linecap round',
    'stroke-linejoin round',
    ...GLYPHS[glyph],
  ]
  magick(['-size', '128x128', 'xc:none', ...draw(primitives), ...png(), file])
}

/** A partner logo: a mark and a two-line name on a white plate. */
export function renderPartner(file, { name, sub, mark, color, font = FONTS.gothic }) {
  const marks = {
    mountain: [
      `fill ${q(color)}`,
      'polygon 16,84 44,36 72,84',
      `fill ${q(C.cream)}`,
      'polygon 36,50 44,36 52,50 44,46',
    ],
    hexagon: [
      'fill none',
      `stroke ${q(color)}`,
      'stroke-width 7',
      'polygon 44,30 70,45 70,75 44,90 18,75 18,45',
    ],
    grid: [
      `fill ${q(color)}`,
      'rectangle 18,34 40,56',
      'rectangle 46,34 68,56',
      'rectangle 18,62 40,84',
      `fill ${q(C.slate300)}`,
      'rectangle 46,62 68,84',
    ],
    leaf: [
      `fill ${q(color)}`,
      'ellipse 44,60 26,26 0,360',
      `fill ${q(C.white)}`,
      'polygon 44,40 56,66 44,80 32,66',
    ],
    columns: [
      `fill ${q(color)}`,
      'polygon 14,44 44,26 74,44',
      'rectangle 20,48 28,80',
      'rectangle 40,48 48,80',
      'rectangle 60,48 68,80',
      'rectangle 14,82 74,90',
    ],
  }
  magick([
    '-size',
    '240x120',
    'xc:none',
    ...draw([
      `fill ${q(C.white)}`,
      `stroke ${q(C.cream2)}`,
      'stroke-width 2',
      'roundrectangle 2,2 237,117 14,14',
      'stroke none',
      ...marks[mark],
    ]),
    '-font',
    font,
    '-fill',
    C.slate900,
    '-pointsize',
    String(Math.min(21, Math.floor(146 / (name.length * 0.6)))),
    '-annotate',
    '+84+58',
    name,
    '-font',
    FONTS.gothicBook,
    '-fill',
    color,
    '-pointsize',
    '13',
    '-annotate',
    '+85+80',
    sub,
    ...png(),
    file,
  ])
}

/** The Erebuni mark: a tuff arch between two crenellated towers (the fortress of 782 BC). */
function markPrimitives(color, accent, ox = 0, oy = 0, s = 1) {
  const p = (x, y) => `${(ox + x * s).toFixed(1)},${(oy + y * s).toFixed(1)}`
  return [
    `fill ${q(color)}`,
    `polygon ${p(0, 40)} ${p(0, 6)} ${p(4, 6)} ${p(4, 0)} ${p(8, 0)} ${p(8, 6)} ${p(12, 6)} ${p(12, 0)} ${p(16, 0)} ${p(16, 40)}`,
    `polygon ${p(48, 40)} ${p(48, 0)} ${p(52, 0)} ${p(52, 6)} ${p(56, 6)} ${p(56, 0)} ${p(60, 0)} ${p(60, 6)} ${p(64, 6)} ${p(64, 40)}`,
    `fill ${q(accent)}`,
    `path 'M ${p(18, 40)} L ${p(18, 16)} L ${p(46, 16)} L ${p(46, 40)} L ${p(39, 40)} L ${p(39, 29)} A ${7 * s},${7 * s} 0 0,0 ${p(25, 29)} L ${p(25, 40)} Z'`,
  ]
}

/** logo.png (150x95): mark, EREBUNI, DEVELOPMENT; `white` for dark backgrounds and the icon link. */
export function renderLogo(file, { white = false } = {}) {
  const ink = white ? C.white : C.slate900
  const accent = white ? C.white : C.tuff500
  magick([
    '-size',
    '150x95',
    'xc:none',
    ...draw(markPrimitives(ink, accent, 51, 4, 0.75)),
    '-font',
    FONTS.gothic,
    '-fill',
    ink,
    '-pointsize',
    '27',
    '-kerning',
    '2',
    '-gravity',
    'north',
    '-annotate',
    '+0+36',
    'EREBUNI',
    '-font',
    FONTS.gothicBook,
    '-fill',
    accent,
    '-pointsize',
    '11',
    '-kerning',
    '3.2',
    '-annotate',
    '+1+70',
    'DEVELOPMENT',
    ...png(),
    file,
  ])
}

/** favicon.ico (16, 32, 48): the mark in cream on a slate tile. */
export function renderFavicon(file, tmp) {
  magick([
    '-size',
    '96x96',
    'xc:none',
    ...draw([
      `fill ${q(C.slate900)}`,
      'roundrectangle 0,0 95,95 18,18',
      ...markPrimitives(C.cream, C.tuff300, 16, 24, 1),
    ]),
    ...png(),
    tmp,
  ])
  magick([tmp, '-define', 'icon:auto-resize=48,32,16', file])
}

/** The shared social-card image (1200x630): a banner, the wordmark and the name in three languages. */
export function renderSocialCard(file, banner) {
  magick([
    banner,
    '-resize',
    '1200x630^',
    '-gravity',
    'center',
    '-extent',
    '1200x630',
    '-gravity',
    'northwest',
    '-font',
    FONTS.gothic,
    '-fill',
    C.white,
    '-pointsize',
    '72',
    '-annotate',
    '+80+170',
    'EREBUNI',
    '-font',
    FONTS.gothicBook,
    '-pointsize',
    '30',
    '-kerning',
    '8',
    '-fill',
    C.tuff100,
    '-annotate',
    '+84+255',
    'DEVELOPMENT',
    '-kerning',
    '0',
    '-font',
    FONTS.sansBold,
    '-pointsize',
    '28',
    '-fill',
    C.white,
    '-annotate',
    '+84+320',
    'Էրեբունի Դևելոփմենթ  ·  Эребуни Девелопмент',
    ...jpeg(74),
    file,
  ])
}
