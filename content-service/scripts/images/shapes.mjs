/**
 * MVG building blocks for the architectural pictures: Ararat, skylines, cranes, trees, facades.
 * Each returns a list of MVG primitives for `draw()`.
 */
import { C } from './magick.mjs'

const r = (n) => Math.round(n * 10) / 10

/** Masis with Sis to its left (Ararat as seen from Yerevan), snow on both peaks. */
export function ararat({ x, baseY, height, color, snow }) {
  const w = height * 3.2
  const at = (dx, dy) => [x + dx * w, baseY - dy * height]
  const body = [
    at(-1, 0),
    at(-0.72, 0.3),
    at(-0.55, 0.52),
    at(-0.45, 0.42),
    at(-0.33, 0.45),
    at(-0.18, 0.72),
    at(-0.06, 0.95),
    at(0, 1),
    at(0.07, 0.96),
    at(0.2, 0.72),
    at(0.5, 0.25),
    at(0.75, 0),
  ]
  const cap = [
    at(-0.123, 0.83),
    at(-0.06, 0.95),
    at(0, 1),
    at(0.07, 0.96),
    at(0.146, 0.82),
    at(0.1, 0.77),
    at(0.06, 0.84),
    at(0.02, 0.74),
    at(-0.03, 0.82),
    at(-0.08, 0.76),
  ]
  const smallCap = [
    at(-0.596, 0.46),
    at(-0.55, 0.52),
    at(-0.49, 0.46),
    at(-0.52, 0.43),
    at(-0.555, 0.47),
  ]
  const poly = (points) => `polygon ${points.map(([px, py]) => `${r(px)},${r(py)}`).join(' ')}`
  return [`fill ${q(color)}`, poly(body), `fill ${q(snow)}`, poly(cap), poly(smallCap)]
}

/**
 * A row of buildings from x=0 to `width` standing on `baseY`; lit windows when `windows` is set.
 * Tops vary: flat, stepped, antenna, pitched.
 */
export function skyline(
  rng,
  { width, baseY, minH, maxH, minW = 40, maxW = 110, fill, windows, lit = 0.3 }
) {
  const out = [`fill ${q(fill)}`]
  const lights = []
  for (let x = -20; x < width;) {
    const w = rng.between(minW, maxW)
    const h = rng.between(minH, maxH)
    const top = baseY - h
    out.push(`rectangle ${r(x)},${r(top)} ${r(x + w)},${baseY}`)
    const kind = rng()
    if (kind < 0.25)
      out.push(`rectangle ${r(x + w * 0.2)},${r(top - h * 0.12)} ${r(x + w * 0.8)},${r(top)}`)
    else if (kind < 0.4)
      out.push(`rectangle ${r(x + w * 0.48)},${r(top - h * 0.3)} ${r(x + w * 0.52)},${r(top)}`)
    else if (kind < 0.55)
      out.push(
        `polygon ${r(x)},${r(top)} ${r(x + w / 2)},${r(top - w * 0.35)} ${r(x + w)},${r(top)}`
      )
    if (windows) {
      for (let wy = top + 12; wy < baseY - 14; wy += 18) {
        for (let wx = x + 8; wx < x + w - 12; wx += 14) {
          if (rng() < lit) lights.push(`rectangle ${r(wx)},${r(wy)} ${r(wx + 6)},${r(wy + 9)}`)
        }
      }
    }
    x += w + rng.between(-6, 10)
  }
  if (windows) out.push(`fill ${q(windows)}`, ...lights)
  return out
}

/** A tower crane: lattice mast, jib to the right, counter-jib with its weight, hook cable. */
export function crane({ x, baseY, height, color, reach = height * 0.9 }) {
  const top = baseY - height
  const out = [`stroke ${q(color)}`, 'stroke-width 3', 'fill none']
  out.push(`line ${x},${baseY} ${x},${top}`, `line ${x + 10},${baseY} ${x + 10},${top}`)
  for (let y = baseY; y > top + 12; y -= 20) out.push(`line ${x},${y} ${x + 10},${y - 20}`)
  out.push(
    `line ${x - reach * 0.35},${top} ${x + reach},${top}`,
    `line ${x - reach * 0.35},${top + 8} ${x + reach},${top + 8}`
  )
  out.push(
    `line ${x + 5},${top - 30} ${x + reach},${top}`,
    `line ${x + 5},${top - 30} ${x - reach * 0.35},${top}`
  )
  const hook = x + reach * 0.7
  out.push('stroke-width 1.5', `line ${hook},${top + 8} ${hook},${top + height * 0.45}`)
  out.push(
    'stroke none',
    `fill ${q(color)}`,
    `rectangle ${x - reach * 0.33},${top + 8} ${x - reach * 0.18},${top + 24}`
  )
  out.push(`rectangle ${hook - 7},${top + height * 0.45} ${hook + 7},${top + height * 0.45 + 10}`)
  return out
}

/** Rounded poplar-like trees along a street. */
export function trees(rng, { from, to, baseY, color, trunk, size = 30 }) {
  const out = []
  for (let x = from; x < to; x += rng.between(size * 1.6, size * 3)) {
    const h = rng.between(size * 1.2, size * 2)
    out.push(
      `fill ${q(trunk)}`,
      `rectangle ${r(x - 2)},${r(baseY - h * 0.45)} ${r(x + 2)},${baseY}`
    )
    out.push(
      `fill ${q(color)}`,
      `ellipse ${r(x)},${r(baseY - h * 0.75)} ${r(size * 0.55)},${r(h * 0.5)} 0,360`
    )
  }
  return out
}

/** A window grid inside a rectangle; `arched` draws the ground-floor arches of Yerevan's tuff houses. */
export function windowGrid({ x0, y0, x1, y1, cols, rows, color, frame, arched = false }) {
  const out = []
  const cw = (x1 - x0) / cols
  const rh = (y1 - y0) / rows
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const wx = x0 + col * cw + cw * 0.22
      const wy = y0 + row * rh + rh * 0.2
      const ww = cw * 0.56
      const wh = rh * 0.6
      out.push(
        `fill ${q(frame)}`,
        `rectangle ${r(wx - 2)},${r(wy - 2)} ${r(wx + ww + 2)},${r(wy + wh + 2)}`
      )
      out.push(`fill ${q(color)}`, `rectangle ${r(wx)},${r(wy)} ${r(wx + ww)},${r(wy + wh)}`)
    }
  }
  if (arched) {
    const ay = y1 + rh * 0.15
    for (let col = 0; col < cols; col++) {
      const cx = x0 + col * cw + cw / 2
      const aw = cw * 0.34
      out.push(
        `fill ${q(C.slate900)}`,
        `rectangle ${r(cx - aw)},${r(ay + aw)} ${r(cx + aw)},${r(ay + rh * 1.3)}`
      )
      out.push(`ellipse ${r(cx)},${r(ay + aw)} ${r(aw)},${r(aw)} 180,360`)
    }
  }
  return out
}

/** MVG colour literal. */
export function q(color) {
  return `'${color}'`
}
