/**
 * Wide hero pictures (1600x700): a sky gradient, a soft sun, Ararat, two skyline layers, cranes,
 * and a dark wash on the left where the banner text sits.
 */
import { ararat, crane, skyline, trees } from './shapes.mjs'
import { C, draw, jpeg, magick, seeded } from './magick.mjs'

const W = 1600
const H = 700

/** One banner from a scene description; see SCENES below. */
export function renderBanner(file, scene, size = { width: W, height: H }) {
  const { width, height } = size
  const sx = width / W
  const rng = seeded(scene.seed)
  const baseY = Math.round(height * 0.9)
  const args = ['-size', `${width}x${height}`, `gradient:${scene.sky[0]}-${scene.sky[1]}`]
  const sun = scene.sun
  if (sun) {
    const [x, y, radius] = [sun.x * sx, sun.y * (height / H), sun.r]
    args.push(
      '(',
      '-size',
      `${width}x${height}`,
      'xc:none',
      '-fill',
      sun.glow,
      '-draw',
      `circle ${x},${y} ${x + radius * 2.4},${y}`,
      '-blur',
      '0x60',
      ')',
      '-composite'
    )
    args.push('-fill', sun.color, '-draw', `circle ${x},${y} ${x + radius},${y}`)
  }
  const layers = []
  if (scene.mountain)
    layers.push(
      ...ararat({
        x: scene.mountain.x * sx,
        baseY: baseY - 40,
        height: scene.mountain.h * (height / H),
        color: scene.mountain.color,
        snow: scene.mountain.snow,
      })
    )
  layers.push(
    ...skyline(rng, {
      width,
      baseY: baseY - 10,
      minH: 60,
      maxH: 170,
      minW: 50,
      maxW: 120,
      fill: scene.far,
    })
  )
  for (const c of scene.cranes ?? [])
    layers.push(
      ...crane({
        x: c.x * sx,
        baseY: baseY - 20,
        height: c.h,
        color: scene.craneColor ?? scene.near,
      })
    )
  layers.push(
    ...skyline(rng, {
      width,
      baseY,
      minH: 50,
      maxH: scene.nearMax ?? 230,
      minW: 45,
      maxW: 130,
      fill: scene.near,
      windows: scene.windows,
      lit: scene.lit ?? 0.25,
    })
  )
  if (scene.trees)
    layers.push(
      ...trees(rng, {
        from: 10,
        to: width,
        baseY,
        color: scene.trees,
        trunk: scene.ground,
        size: 18,
      })
    )
  layers.push(`fill '${scene.ground}'`, `rectangle 0,${baseY} ${width},${height}`)
  args.push(...draw(layers))
  if (scene.wash !== '00') {
    args.push(
      '(',
      '-size',
      `${height}x${width}`,
      `gradient:${C.slate900}${scene.wash ?? 'B0'}-${C.slate900}00`,
      '-rotate',
      '-90',
      ')',
      '-composite'
    )
  }
  args.push(...jpeg(scene.quality ?? 70), file)
  magick(args)
}

export const SCENES = {
  'home-hero-1': {
    seed: 11,
    sky: [C.slate700, C.tuff300],
    sun: { x: 1180, y: 420, r: 48, color: '#FBE3C4', glow: '#FFD9B0C0' },
    mountain: { x: 1150, h: 330, color: '#A98A9A', snow: '#F3E6E4' },
    far: '#5E5A72',
    near: C.slate900,
    windows: C.gold,
    cranes: [
      { x: 420, h: 330 },
      { x: 980, h: 270 },
    ],
    ground: C.slate900,
  },
  'home-hero-2': {
    seed: 23,
    sky: ['#9DB3C9', C.tuff100],
    sun: { x: 300, y: 200, r: 40, color: '#FFF4E0', glow: '#FFF1D8B0' },
    mountain: { x: 1100, h: 380, color: '#B7A9B8', snow: C.white },
    far: '#C99A86',
    near: C.tuff600,
    windows: C.cream,
    lit: 0.45,
    trees: '#6F7F5F',
    cranes: [{ x: 1300, h: 300 }],
    wash: '80',
    craneColor: C.tuff800,
    ground: C.tuff800,
  },
  'about-hero': {
    seed: 37,
    sky: [C.tuff600, C.tuff100],
    sun: { x: 1350, y: 300, r: 56, color: '#FFEBD2', glow: '#FFE0C0C0' },
    mountain: { x: 1250, h: 300, color: '#C58C78', snow: C.cream },
    far: C.tuff500,
    near: C.tuff800,
    windows: C.gold,
    lit: 0.2,
    ground: C.tuff800,
  },
  'about-wide': {
    seed: 41,
    sky: ['#7F97B2', C.cream],
    sun: { x: 500, y: 260, r: 36, color: C.white, glow: '#FFFFFF90' },
    mountain: { x: 820, h: 430, color: '#A6A2B6', snow: C.white },
    far: C.slate300,
    near: C.slate500,
    windows: C.cream,
    lit: 0.3,
    trees: '#5E735E',
    ground: C.slate700,
    wash: '00',
  },
  'about-partners': {
    seed: 53,
    sky: [C.slate900, C.slate700],
    far: '#33476380',
    near: '#22324A',
    windows: '#F0BE6A60',
    lit: 0.18,
    ground: '#1F2D42',
    nearMax: 160,
    wash: '00',
    quality: 66,
  },
  'enterprises-hero': {
    seed: 67,
    sky: ['#40577A', C.tuff300],
    sun: { x: 900, y: 470, r: 60, color: '#FFE1BC', glow: '#FFC89AC0' },
    mountain: { x: 1320, h: 260, color: '#8F7F95', snow: '#EDE3E6' },
    far: '#58607A',
    near: C.slate900,
    windows: C.gold,
    lit: 0.15,
    cranes: [
      { x: 260, h: 360 },
      { x: 700, h: 300 },
      { x: 1180, h: 390 },
    ],
    ground: C.slate900,
  },
  'contact-hero': {
    seed: 79,
    sky: ['#0F1724', C.slate700],
    sun: { x: 1400, y: 130, r: 22, color: '#F6F1E4', glow: '#F6F1E460' },
    mountain: { x: 1100, h: 300, color: '#2E3B52', snow: '#6D7890' },
    far: '#253349',
    near: '#121A27',
    windows: C.gold,
    lit: 0.4,
    ground: '#121A27',
  },
  'og-base': {
    seed: 13,
    sky: [C.slate700, C.tuff300],
    sun: { x: 1300, y: 470, r: 44, color: '#FBE3C4', glow: '#FFD9B0C0' },
    mountain: { x: 1250, h: 300, color: '#A98A9A', snow: '#F3E6E4' },
    far: '#5E5A72',
    near: C.slate900,
    windows: C.gold,
    nearMax: 150,
    ground: C.slate900,
  },
  'default-banner': {
    seed: 97,
    sky: [C.slate500, C.cream2],
    mountain: { x: 1100, h: 300, color: '#B2A8B6', snow: C.white },
    far: C.slate300,
    near: C.slate700,
    windows: C.cream,
    lit: 0.2,
    ground: C.slate700,
  },
}
