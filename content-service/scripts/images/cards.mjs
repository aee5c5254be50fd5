/**
 * Card pictures (800x600): one building per enterprise, the about pictures and the mission cards.
 * Each scene is a function of a seeded random source returning MVG primitives over a sky gradient.
 */
import { ararat, q, skyline, trees, windowGrid } from './shapes.mjs'
import { C, draw, jpeg, magick, seeded } from './magick.mjs'

const W = 800
const H = 600
const GROUND = 520

/** Renders one card: `sky` gradient, then the scene's primitives. */
export function renderCard(
  file,
  { seed, sky, scene, quality = 72 },
  size = { width: W, height: H }
) {
  const rng = seeded(seed)
  const args = ['-size', `${W}x${H}`, `gradient:${sky[0]}-${sky[1]}`, ...draw(scene(rng))]
  if (size.width !== W) args.push('-resize', `${size.width}x${size.height}`)
  args.push(...jpeg(quality), file)
  magick(args)
}

const street = (color = C.slate700) => [
  `fill ${q(color)}`,
  `rectangle 0,${GROUND} ${W},${H}`,
  `fill ${q(C.cream2)}`,
  `rectangle 0,${GROUND} ${W},${GROUND + 6}`,
]
const backdrop = (rng, fill) =>
  skyline(rng, { width: W, baseY: GROUND, minH: 80, maxH: 200, minW: 40, maxW: 90, fill })

/** A mid-rise tuff residence with an arcade of arches on the ground floor. */
function residence(rng) {
  return [
    ...ararat({ x: 745, baseY: 360, height: 190, color: '#C9AEB4', snow: C.white }),
    ...backdrop(rng, '#D9B7A480'),
    `fill ${q(C.tuff500)}`,
    `rectangle 120,170 680,${GROUND}`,
    `fill ${q(C.tuff600)}`,
    `rectangle 110,160 690,178`,
    `rectangle 120,430 680,440`,
    ...windowGrid({
      x0: 130,
      y0: 185,
      x1: 670,
      y1: 420,
      cols: 9,
      rows: 4,
      color: '#F6E7CF',
      frame: C.tuff800,
      arched: true,
    }),
    ...trees(rng, {
      from: 30,
      to: 800,
      baseY: GROUND,
      color: '#6E8468',
      trunk: C.tuff800,
      size: 26,
    }),
    ...street(),
  ]
}

/** A slim glass tower on a tuff podium. */
function tower(rng) {
  const out = [...backdrop(rng, '#7E8FA880'), `fill ${q(C.slate700)}`, 'rectangle 300,60 500,440']
  for (let x = 312; x < 492; x += 22)
    out.push(`fill ${q(rng() < 0.5 ? '#5C7899' : '#8FB0CC')}`, `rectangle ${x},70 ${x + 14},430`)
  out.push(
    `fill ${q(C.gold)}`,
    'rectangle 300,60 500,70',
    `fill ${q(C.slate900)}`,
    'rectangle 395,20 405,60'
  )
  out.push(`fill ${q(C.tuff500)}`, `rectangle 220,430 580,${GROUND}`, `fill ${q(C.tuff800)}`)
  for (let x = 240; x < 570; x += 48) out.push(`rectangle ${x},455 ${x + 28},${GROUND}`)
  return [...out, ...street()]
}

/** A glazed office block on Northern Avenue, tuff frame and a rooftop garden. */
function offices(rng) {
  const out = [
    ...backdrop(rng, '#B7A3A880'),
    `fill ${q(C.tuff600)}`,
    `rectangle 90,190 710,${GROUND}`,
  ]
  for (let row = 0; row < 6; row++) {
    for (let col = 0; col < 10; col++) {
      const x = 104 + col * 60
      const y = 204 + row * 52
      out.push(
        `fill ${q(rng() < 0.3 ? '#DCE6EE' : '#7F9CB8')}`,
        `rectangle ${x},${y} ${x + 50},${y + 42}`
      )
    }
  }
  out.push(
    `fill ${q(C.sage)}`,
    'ellipse 160,188 40,14 180,360',
    'ellipse 330,188 50,16 180,360',
    'ellipse 600,188 46,15 180,360'
  )
  return [...out, ...street()]
}

/** A row of family townhouses with pitched roofs. */
function townhouses(rng) {
  const out = [...ararat({ x: 420, baseY: 360, height: 170, color: '#BBA8B8', snow: C.white })]
  const walls = [C.tuff300, C.cream2, C.tuff500, C.tuff100, C.tuff300]
  for (let i = 0; i < 5; i++) {
    const x = 40 + i * 146
    out.push(`fill ${q(walls[i])}`, `rectangle ${x},300 ${x + 130},${GROUND}`)
    out.push(`fill ${q(C.slate700)}`, `polygon ${x - 10},300 ${x + 65},230 ${x + 140},300`)
    out.push(`fill ${q(C.slate900)}`, `rectangle ${x + 52},440 ${x + 78},${GROUND}`)
    out.push(
      ...windowGrid({
        x0: x + 10,
        y0: 320,
        x1: x + 120,
        y1: 420,
        cols: 2,
        rows: 1,
        color: '#F6E7CF',
        frame: C.tuff800,
      })
    )
  }
  return [
    ...out,
    ...trees(rng, {
      from: 20,
      to: 800,
      baseY: GROUND,
      color: '#6E8468',
      trunk: C.tuff800,
      size: 20,
    }),
    ...street(C.sage),
  ]
}

/** A low shopping plaza with a colonnade and a fountain, below the Erebuni hill. */
function plaza(rng) {
  const out = [
    `fill ${q('#C79A84')}`,
    'polygon 0,330 180,250 420,230 640,270 800,320 800,520 0,520',
  ]
  out.push(
    `fill ${q(C.tuff500)}`,
    'rectangle 60,300 740,470',
    `fill ${q(C.tuff800)}`,
    'rectangle 50,290 750,310'
  )
  for (let x = 90; x < 720; x += 56)
    out.push(
      `fill ${q(C.cream)}`,
      `rectangle ${x},320 ${x + 14},470`,
      `fill ${q('#2F405A')}`,
      `rectangle ${x + 20},340 ${x + 46},470`
    )
  out.push(
    `fill ${q(C.cream2)}`,
    `rectangle 0,470 800,${GROUND}`,
    `fill ${q('#8FB0CC')}`,
    'ellipse 400,500 110,16 0,360'
  )
  out.push(`fill ${q(C.white)}`, 'ellipse 400,470 8,30 0,360')
  return [
    ...out,
    ...trees(rng, { from: 10, to: 800, baseY: 475, color: '#6E8468', trunk: C.tuff800, size: 22 }),
    ...street(),
  ]
}

/** The spec's fallback picture: a quiet line drawing of a building on cream. */
function placeholder() {
  const out = [
    'fill none',
    `stroke ${q(C.slate300)}`,
    'stroke-width 6',
    'rectangle 280,200 520,470',
    'polyline 260,210 400,120 540,210',
  ]
  for (let y = 240; y < 440; y += 60)
    for (let x = 310; x < 500; x += 70) out.push(`rectangle ${x},${y} ${x + 40},${y + 36}`)
  return [...out, 'stroke-width 4', 'line 160,470 640,470']
}

/** Tuff facade close-up: rows of arches in warm stone. */
function arcade(rng) {
  const out = []
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 6; col++) {
      const x = -40 + col * 150 + (row % 2) * 75
      const y = 40 + row * 190
      out.push(
        `fill ${q(rng.pick([C.tuff500, C.tuff600, C.tuff300]))}`,
        `rectangle ${x},${y} ${x + 150},${y + 190}`
      )
      out.push(
        `fill ${q(C.slate900)}`,
        `rectangle ${x + 40},${y + 80} ${x + 110},${y + 190}`,
        `ellipse ${x + 75},${y + 80} 35,35 180,360`
      )
      out.push(`fill ${q('#F0BE6A90')}`, `rectangle ${x + 50},${y + 110} ${x + 100},${y + 190}`)
    }
  }
  return out
}

/** A blueprint: grid, an elevation of a building and its dimension lines. */
function blueprint() {
  const out = [`stroke ${q('#F7EFE330')}`, 'stroke-width 1']
  for (let x = 0; x <= W; x += 40) out.push(`line ${x},0 ${x},${H}`)
  for (let y = 0; y <= H; y += 40) out.push(`line 0,${y} ${W},${y}`)
  out.push(
    'fill none',
    `stroke ${q(C.cream)}`,
    'stroke-width 3',
    'rectangle 200,160 600,480',
    'polyline 180,160 400,80 620,160'
  )
  for (let y = 200; y < 440; y += 70)
    for (let x = 240; x < 560; x += 80) out.push(`rectangle ${x},${y} ${x + 40},${y + 45}`)
  out.push(
    `stroke ${q(C.gold)}`,
    'stroke-width 2',
    'line 200,520 600,520',
    'line 200,510 200,530',
    'line 600,510 600,530',
    'line 650,160 650,480',
    'line 640,160 660,160',
    'line 640,480 660,480'
  )
  return out
}

/** Mission card motifs: geometric, in the palette. */
const missionMotifs = {
  quality: () => {
    const out = []
    for (let i = 0; i < 6; i++)
      out.push(
        `fill ${q([C.tuff600, C.tuff500, C.tuff300, C.tuff100, C.cream, C.gold][i])}`,
        `polygon ${[0, 1, 2, 3]
          .map((k) => {
            const a = Math.PI / 4 + (k * Math.PI) / 2 + i * 0.12
            const d = 260 - i * 38
            return `${(400 + d * Math.cos(a)).toFixed(1)},${(300 + d * Math.sin(a)).toFixed(1)}`
          })
          .join(' ')}`
      )
    return out
  },
  sustainability: (rng) => [
    `fill ${q('#8FAF8A')}`,
    'circle 400,300 400,80',
    `fill ${q(C.sage)}`,
    'ellipse 300,330 130,70 0,360',
    'ellipse 520,280 120,60 0,360',
    ...skyline(rng, {
      width: W,
      baseY: 470,
      minH: 70,
      maxH: 170,
      minW: 50,
      maxW: 90,
      fill: C.tuff600,
      windows: C.cream,
      lit: 0.4,
    }),
    ...trees(rng, { from: 20, to: 800, baseY: 470, color: '#5E7A5A', trunk: C.tuff800, size: 28 }),
    `fill ${q(C.tuff800)}`,
    'rectangle 0,470 800,600',
  ],
  community: (rng) => {
    const out = [`fill ${q(C.sage)}`, 'ellipse 400,700 640,360 180,360']
    for (let i = 0; i < 14; i++) {
      const x = rng.between(60, 700)
      const y = rng.between(330, 470)
      const s = rng.between(40, 70)
      out.push(
        `fill ${q(rng.pick([C.tuff300, C.tuff500, C.cream, C.tuff100]))}`,
        `rectangle ${x},${y} ${x + s},${y + s * 0.8}`
      )
      out.push(
        `fill ${q(rng.pick([C.slate700, C.tuff800]))}`,
        `polygon ${x - 6},${y} ${x + s / 2},${y - s * 0.5} ${x + s + 6},${y}`
      )
    }
    return out
  },
  innovation: (rng) => {
    const out = []
    for (let i = 0; i < 9; i++) {
      const x = 170 + (i % 3) * 150 + rng.between(-10, 10)
      const y = 140 + Math.floor(i / 3) * 130
      const s = 70
      out.push(
        `fill ${q(C.tuff300)}`,
        `polygon ${x},${y} ${x + s},${y - s / 2} ${x + 2 * s},${y} ${x + s},${y + s / 2}`
      )
      out.push(
        `fill ${q(C.tuff600)}`,
        `polygon ${x},${y} ${x + s},${y + s / 2} ${x + s},${y + s * 1.5} ${x},${y + s}`
      )
      out.push(
        `fill ${q(C.slate500)}`,
        `polygon ${x + s},${y + s / 2} ${x + 2 * s},${y} ${x + 2 * s},${y + s} ${x + s},${y + s * 1.5}`
      )
    }
    return out
  },
}

export const CARDS = {
  'enterprises/arabkir-residence': { seed: 101, sky: ['#9DB3C9', C.cream], scene: residence },
  'enterprises/ararat-view-tower': { seed: 102, sky: [C.tuff300, C.cream], scene: tower },
  'enterprises/northern-avenue-offices': { seed: 103, sky: ['#B5C4D4', C.tuff100], scene: offices },
  'enterprises/davtashen-townhouses': { seed: 104, sky: ['#8FA6C0', C.cream], scene: townhouses },
  'enterprises/erebuni-plaza': { seed: 105, sky: [C.tuff300, C.tuff100], scene: plaza },
  'about/tuff-arcade': { seed: 201, sky: [C.tuff800, C.tuff600], scene: arcade },
  'about/blueprint': { seed: 202, sky: [C.slate700, C.slate900], scene: blueprint },
  'contact/office': { seed: 205, sky: [C.tuff800, C.tuff600], scene: arcade },
  'missions/quality': { seed: 301, sky: [C.slate700, C.slate900], scene: missionMotifs.quality },
  'missions/sustainability': {
    seed: 302,
    sky: ['#B8CBD9', C.cream],
    scene: missionMotifs.sustainability,
  },
  'missions/community': { seed: 303, sky: [C.tuff100, C.cream], scene: missionMotifs.community },
  'missions/innovation': { seed: 304, sky: [C.cream, C.cream2], scene: missionMotifs.innovation },
}

/** The spec's fallbacks that are cards: /default-enterprise.jpg and /default-about.jpg. */
export const DEFAULT_CARDS = {
  'default-enterprise': { seed: 1, sky: [C.cream, C.cream2], scene: placeholder },
  'default-about': { seed: 7, sky: [C.tuff800, C.tuff600], scene: arcade },
}
