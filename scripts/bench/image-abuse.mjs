/**
 * Step `image-abuse` (`npm run bench:image-abuse`): the image route's fences, measured
 * (docs/decisions/0013-signed-image-addresses.md and 0014).
 *
 * A site under `wrangler dev` (production build) whose API_HOST is a loopback origin started here:
 * it answers every payload call with an empty payload (pages render with their fallbacks) and
 * serves uploads, counting every download: `photo.jpg` (a camera photo) and `big-<n>.png`, 24 MB
 * originals (noise PNGs: distinct addresses, one file). The bench signs its addresses with the
 * site's IMAGE_URL_SECRET, which it sets, exactly as the site's pages do (src/images/image-signature.ts).
 *
 * 1. Respellings: one address a page would write, requested once, then 100 respellings of it
 *    (cache-busting parameters, fragments, case, percent-encoding, dot segments, doubled slashes,
 *    parameter order and duplicates, extra parameters), for a CMS photo and for a bundled image:
 *    origin downloads (counted by the origin) and transforms (answers marked `X-Image-Cache: miss`).
 *    Target: 0 beyond the first.
 * 2. Memory: 20 concurrent misses of distinct 24 MB originals; the resident memory of the workerd
 *    processes (/proc, VmRSS, sampled every 50 ms) before and at the peak. Target: under 128 MB more.
 *
 * Everything stays on 127.0.0.1.
 */
import { createHmac, randomBytes } from 'node:crypto'
import http from 'node:http'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { cameraPhoto } from '../lib/camera-uploads/photos.mjs'
import { processesOf, ROOT, startSite } from '../lib/local-site.mjs'

const CONCURRENT_MISSES = 20
const BIG_SIDE = 2830 // 2830 × 2830 × 3 bytes of noise: a 24 MB PNG
const RESPELLINGS = 100
const ACCEPT_WEBP = 'image/webp,image/png,image/*;q=0.8'

/**
 * The signature the site's views put in `s` (src/images/image-signature.ts): HMAC-SHA256 over the
 * source, `ladder` (any ladder width) and the fallback, base64url, 16 characters.
 */
function signedAddress(secret, src, width, fallback) {
  const signature = createHmac('sha256', secret)
    .update(`${src}\nladder\n${fallback ?? ''}`)
    .digest('base64url')
    .slice(0, 16)
  const encode = (value) =>
    encodeURIComponent(value).replace(
      /[!'()*]/g,
      (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`
    )
  return `/_image?src=${encode(src)}&w=${width}${fallback ? `&fallback=${encode(fallback)}` : ''}&s=${signature}`
}

/** The loopback CMS: empty payloads, counted uploads. */
async function startOrigin() {
  const big = await sharp(randomBytes(BIG_SIDE * BIG_SIDE * 3), {
    raw: { width: BIG_SIDE, height: BIG_SIDE, channels: 3 },
  })
    .png({ compressionLevel: 0 })
    .toBuffer()
  const photo = await cameraPhoto('bench-abuse-photo', {
    width: 4000,
    height: 3000,
    noise: 4,
    quality: 80,
  })
  const downloads = new Map()
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://origin')
    if (url.pathname.startsWith('/api/')) {
      response.writeHead(200, { 'Content-Type': 'application/json' })
      return response.end('{"payload":{}}')
    }
    const file = /^\/uploads\/(photo\.jpg|big-\d+\.png)$/.exec(url.pathname)?.[1]
    if (!file) {
      response.writeHead(404)
      return response.end()
    }
    downloads.set(url.pathname, (downloads.get(url.pathname) ?? 0) + 1)
    const body = file === 'photo.jpg' ? photo : big
    response.writeHead(200, {
      'Content-Type': file === 'photo.jpg' ? 'image/jpeg' : 'image/png',
      'Content-Length': body.byteLength,
    })
    response.end(body)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
  return {
    origin: `http://127.0.0.1:${port}`,
    bigBytes: big.byteLength,
    downloads: () => [...downloads.values()].reduce((sum, count) => sum + count, 0),
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

/** 100 respellings of `address` (a page's `/_image?...`), ten of each kind. */
function respellingsOf(address) {
  const url = new URL(address, 'http://site')
  const params = [...url.searchParams]
  const src = url.searchParams.get('src') ?? ''
  const rest = address.slice(address.indexOf('&w='))
  const kinds = [
    (n) => `${address}&cb=${n}`,
    (n) => `${address}#${n}`,
    (n) => `/_image?cb=${n}&${url.search.slice(1)}`,
    (n) =>
      `/_image?src=${encodeURIComponent(n % 2 ? src.toUpperCase() : src.replace(/\.(\w+)$/, (ext) => ext.toUpperCase()))}${rest}`,
    (n) =>
      address.replace(/%[0-9A-F]{2}/g, (escape) =>
        n % 2 ? escape.toLowerCase() : `%25${escape.slice(1)}`
      ),
    (n) =>
      `/_image?src=${encodeURIComponent(src.replace(/\/(?=[^/]*$)/, `/${'./'.repeat(n + 1)}`))}${rest}`,
    (n) =>
      `/_image?src=${encodeURIComponent(src.replace(/\/(?=[^/]*$)/, '/'.repeat(n + 2)))}${rest}`,
    (n) =>
      `/_image?${[...params]
        .reverse()
        .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
        .join('&')}${'&'.repeat(n)}`,
    (n) => `${address}&w=${url.searchParams.get('w')}${n ? `&x${n}=1` : ''}`,
    (n) => `/_image?src=${encodeURIComponent(`${src}?v=${n}`)}${rest}`,
  ]
  return Array.from({ length: RESPELLINGS }, (_, i) =>
    kinds[i % kinds.length](Math.floor(i / kinds.length))
  )
}

async function respellingFigures(site, origin, secret, label, src) {
  const address = signedAddress(secret, src, 640)
  const before = origin.downloads()
  const first = await fetch(site.origin + address, { headers: { Accept: ACCEPT_WEBP } })
  await first.arrayBuffer()
  const afterFirst = origin.downloads()
  let transforms = 0
  const statuses = new Map()
  for (const respelled of respellingsOf(address)) {
    const response = await fetch(site.origin + respelled, { headers: { Accept: ACCEPT_WEBP } })
    await response.arrayBuffer()
    if (response.headers.get('X-Image-Cache') === 'miss') transforms++
    const key =
      `${response.status} ${response.headers.get('X-Image-Reason') ?? response.headers.get('X-Image-Cache') ?? ''}`.trim()
    statuses.set(key, (statuses.get(key) ?? 0) + 1)
  }
  return {
    source: label,
    'first request': `${first.status} ${first.headers.get('X-Image-Cache')}`,
    'downloads (first)': afterFirst - before,
    'respelled requests': RESPELLINGS,
    'downloads (respelled)': origin.downloads() - afterFirst,
    'transforms (respelled)': transforms,
    answers: [...statuses].map(([key, count]) => `${count}× ${key}`).join(', '),
  }
}

/** Resident memory of the workerd processes of `processGroup`, in MB. */
function workerdMemoryMb(processGroup) {
  let kb = 0
  for (const { pid } of processesOf(processGroup)) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('workerd')) continue
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
    } catch {
      // The process ended in between.
    }
  }
  return kb / 1024
}

async function memoryFigures(site, origin, secret) {
  const baseline = workerdMemoryMb(site.processGroup)
  let peak = baseline
  const sampler = setInterval(() => (peak = Math.max(peak, workerdMemoryMb(site.processGroup))), 50)
  const before = origin.downloads()
  const started = performance.now()
  const answers = await Promise.all(
    Array.from({ length: CONCURRENT_MISSES }, async (_, i) => {
      const response = await fetch(
        site.origin + signedAddress(secret, `${origin.origin}/uploads/big-${i}.png`, 640),
        { headers: { Accept: ACCEPT_WEBP } }
      )
      await response.arrayBuffer()
      return {
        status: response.status,
        reason: response.headers.get('X-Image-Reason') ?? response.headers.get('X-Image-Cache'),
        ms: performance.now() - started,
      }
    })
  )
  // Background transforms (a visitor who stopped waiting) finish within the budget: keep sampling.
  await new Promise((resolve) => setTimeout(resolve, 3_000))
  clearInterval(sampler)
  const outcomes = new Map()
  for (const { status, reason } of answers)
    outcomes.set(`${status} ${reason}`, (outcomes.get(`${status} ${reason}`) ?? 0) + 1)
  return {
    misses: CONCURRENT_MISSES,
    'original MB': (origin.bigBytes / 1024 / 1024).toFixed(1),
    'workerd MB before': Math.round(baseline),
    'workerd MB peak': Math.round(peak),
    'MB added': Math.round(peak - baseline),
    'slowest answer s': (Math.max(...answers.map((answer) => answer.ms)) / 1000).toFixed(1),
    downloads: origin.downloads() - before,
    answers: [...outcomes].map(([key, count]) => `${count}× ${key}`).join(', '),
  }
}

/** The step: its own origin and site, both stopped at the end. */
export const step = {
  name: 'image-abuse',
  title: "The image route's fences",
  usesSite: false,
  run: ({ report }) => measureImageAbuse(report),
}

async function measureImageAbuse(report) {
  report.text(
    `\nImage route fences: ${RESPELLINGS} respellings of one address, then ${CONCURRENT_MISSES} concurrent misses of 24 MB originals`
  )
  const origin = await startOrigin()
  const secret = randomBytes(16).toString('hex')
  const site = await startSite({
    vars: { API_HOST: origin.origin, IMAGE_URL_SECRET: secret },
    production: true,
    persistTo: path.join(ROOT, '.wrangler/bench/abuse-state'),
    logFile: path.join(ROOT, '.wrangler/bench/wrangler-abuse.log'),
  })
  try {
    report.table([
      await respellingFigures(
        site,
        origin,
        secret,
        'CMS photo (3 MB JPEG)',
        `${origin.origin}/uploads/photo.jpg`
      ),
      await respellingFigures(
        site,
        origin,
        secret,
        'bundled image',
        '/images/banners/home-hero-1.jpg'
      ),
    ])
    report.text(
      'downloads: counted by the origin; transforms: answers marked X-Image-Cache: miss (target: 0 beyond the first)'
    )
    const memory = await memoryFigures(site, origin, secret)
    report.table([memory])
    report.text(
      `workerd resident memory under ${CONCURRENT_MISSES} concurrent misses of 24 MB originals: +${memory['MB added']} MB (target: under 128 MB)`
    )
    return memory
  } finally {
    await site.stop()
    await origin.close()
  }
}
