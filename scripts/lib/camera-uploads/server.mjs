/**
 * The "camera uploads" content backend: spec section 7 on 127.0.0.1, answering the bundled seed's
 * payloads (content-service/seed/*.json, read by the same readSeed the reference service is seeded
 * with) with every content image replaced by an absolute address on this backend's own origin,
 * /uploads/<name>.jpg|png, serving a large generated photo (./photos.mjs): JPEG slots get
 * 4000×3000 JPEGs of 2–6 MB (founders' portraits 3000×4000), PNG slots (icons, logos) 1600×1600
 * PNGs, each kind of slot taking turns among three photos (PHOTOS_PER_KIND). Photos are generated
 * once per machine (.wrangler/camera-uploads/) before it listens.
 *
 * Run the site on it (two terminals):
 *   npm run camera-backend                         # prints its origin, e.g. http://127.0.0.1:8790
 *   npx wrangler dev --var API_HOST:http://127.0.0.1:8790
 * (`npm run camera-backend -- --port 9000` picks another port.)
 *
 * From tests and the bench:
 *   import { startCameraBackend } from '../scripts/lib/camera-uploads/server.mjs'
 *   const backend = await startCameraBackend({ port: 0 })   // 0: any free port
 *   backend.origin   // 'http://127.0.0.1:<port>': pass as API_HOST
 *   backend.photos   // Map '/uploads/<name>' -> { file, bytes, width, height }
 *   await backend.close()
 *
 * `uploadsIn` names the calls whose payloads carry the uploads (default: every call): an editor who
 * has uploaded camera photos for one page while the rest of the site still shows the bundled images
 * (the site's own small assets), as tests/e2e/images-after-publish.spec.ts needs.
 *
 * Every answer is logged nowhere and nothing is fetched from outside; POST messages answers 200.
 */
import { createReadStream, statSync } from 'node:fs'
import { createServer } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { readSeed } from '../../../content-service/scripts/seed-sql.mjs'
import { cameraPhotoPath } from './photos.mjs'

/** Payload fields that hold an image address (shared/spec/payload-fields.md). */
const IMAGE_FIELDS = new Set(['img', 'icon', 'firstBanner', 'secondBanner', 'image'])
const IMAGE_PATH = /^\/[^/].*\.(jpe?g|png|webp)$/i

/** Call name (spec section 7) -> seed file slug. */
const PAGE_CALLS = {
  'get-home-page': 'home',
  'get-about-page': 'about',
  'get-enterprises-page': 'enterprises',
  'contact-us': 'contact-us',
  'navbar-data': 'navbar',
}

/** Every call the backend answers with a payload: PAGE_CALLS and page-meta-data. */
const CALLS = [...Object.keys(PAGE_CALLS), 'page-meta-data']

/**
 * @param {{ port?: number, host?: string, uploadsIn?: string[] }} [options]
 * @returns {Promise<{ origin: string, photos: Map<string, { file: string, bytes: number, width: number, height: number }>, close: () => Promise<void> }>}
 */
export async function startCameraBackend({ port = 0, host = '127.0.0.1', uploadsIn = CALLS } = {}) {
  const unknown = uploadsIn.filter((call) => !CALLS.includes(call))
  if (unknown.length)
    throw new Error(`camera uploads: no call ${unknown.join(', ')}; calls: ${CALLS.join(', ')}`)
  const seed = readSeed()
  const uploads = uploadNames({
    pages: Object.fromEntries(
      Object.entries(PAGE_CALLS)
        .filter(([call]) => uploadsIn.includes(call))
        .map(([, slug]) => [slug, seed.pages[slug]])
    ),
    pageMeta: uploadsIn.includes('page-meta-data') ? seed.pageMeta : {},
  })
  const photos = await generatePhotos(uploads)
  let origin = ''

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://camera.local')
    const photo = photos.get(url.pathname)
    if (photo && (request.method === 'GET' || request.method === 'HEAD')) {
      response.writeHead(200, {
        'Content-Type': photo.type,
        'Content-Length': photo.bytes,
        'Cache-Control': 'public, max-age=31536000',
      })
      if (request.method === 'HEAD') return response.end()
      return createReadStream(photo.file).pipe(response)
    }
    const match = /^\/api\/[^/]+\/([^/]+)$/.exec(url.pathname)
    const call = match?.[1] ?? ''
    if (request.method === 'POST' && call === 'messages') {
      request.resume()
      return request.on('end', () => json(response, 200, { message: 'Message received' }))
    }
    if (request.method !== 'GET')
      return json(response, 405, { message: `${request.method} is not served` })
    const answer = (payload) =>
      json(response, 200, {
        payload: uploadsIn.includes(call) ? withUploads(payload, uploads, origin) : payload,
      })
    if (call in PAGE_CALLS) return answer(seed.pages[PAGE_CALLS[call]])
    if (call === 'page-meta-data') {
      const page = url.searchParams.get('page') ?? ''
      const meta = seed.pageMeta[page]
      return meta
        ? answer(meta)
        : json(response, 404, { message: `No meta data for page "${page}"` })
    }
    return json(response, 404, { message: `Not found: ${url.pathname}` })
  })

  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  const address = server.address()
  origin = `http://${host}:${typeof address === 'object' && address ? address.port : port}`
  return {
    origin,
    photos,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Seed image path -> upload path, e.g. /images/banners/home-hero-1.jpg -> /uploads/banners-home-hero-1.jpg. */
function uploadNames(seed) {
  const names = new Map()
  visit(seed, '', (value) => {
    const extension = path.extname(value).toLowerCase() === '.png' ? 'png' : 'jpg'
    const stem = value
      .replace(/^\/images\//, '')
      .replace(/\.[a-z]+$/i, '')
      .replace(/[^a-z0-9]+/gi, '-')
    names.set(value, `/uploads/${stem}.${extension}`)
  })
  return names
}

/**
 * How many different photos each kind of slot (landscape, portrait, icon) draws from: each upload
 * serves one of them, taking turns in the order of the addresses. An upload's renditions follow its
 * address, so sharing bytes changes nothing the site does; drawing a 4000×3000 photo costs about
 * 1.4 CPU-s, and the seed has 35 uploads.
 */
const PHOTOS_PER_KIND = 3

/** Generates (or finds) the photo each upload serves, two at a time. */
async function generatePhotos(uploads) {
  const photos = new Map()
  const turns = { landscape: 0, portrait: 0, icon: 0 }
  const slots = [...new Set(uploads.values())].sort().map((upload) => {
    const kind = upload.endsWith('.png')
      ? 'icon'
      : upload.startsWith('/uploads/founders-')
        ? 'portrait'
        : 'landscape'
    return { upload, kind, photo: `${kind}-${turns[kind]++ % PHOTOS_PER_KIND}` }
  })
  /** Each photo to draw, once, with its kind. */
  const queue = [...new Map(slots.map(({ photo, kind }) => [photo, kind]))]
  /** @type {Map<string, string>} photo name -> file */
  const files = new Map()
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [photo, kind] = next
      files.set(photo, await cameraPhotoPath(photo, PHOTO_OPTIONS[kind]))
    }
  }
  await Promise.all([worker(), worker()])
  for (const { upload, kind, photo } of slots) {
    const file = /** @type {string} */ (files.get(photo))
    const { width, height, format } = PHOTO_OPTIONS[kind]
    photos.set(upload, {
      file,
      bytes: statSync(file).size,
      width,
      height,
      type: format === 'png' ? 'image/png' : 'image/jpeg',
    })
  }
  return photos
}

/** @type {Record<string, import('./photos.mjs').PhotoOptions>} */
const PHOTO_OPTIONS = {
  landscape: { width: 4000, height: 3000, format: 'jpeg' },
  portrait: { width: 3000, height: 4000, format: 'jpeg' },
  icon: { width: 1600, height: 1600, noise: 6, format: 'png' },
}

/** A copy of `payload` with each image address replaced by its upload's absolute address. */
function withUploads(payload, uploads, origin) {
  return JSON.parse(JSON.stringify(payload), function (key, value) {
    return typeof value === 'string' && IMAGE_FIELDS.has(key) && uploads.has(value)
      ? `${origin}${uploads.get(value)}`
      : value
  })
}

function visit(value, key, found) {
  if (typeof value === 'string') {
    if (IMAGE_FIELDS.has(key) && IMAGE_PATH.test(value)) found(value)
  } else if (Array.isArray(value)) {
    for (const item of value) visit(item, key, found)
  } else if (value && typeof value === 'object') {
    for (const [childKey, child] of Object.entries(value)) visit(child, childKey, found)
  }
}

function json(response, status, body) {
  const text = JSON.stringify(body)
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  })
  response.end(text)
}

// CLI: node scripts/lib/camera-uploads/server.mjs [--port 8790]
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const flag = process.argv.indexOf('--port')
  const port = flag > 0 ? Number(process.argv[flag + 1]) : 8790
  console.log('camera uploads: generating photos (once per machine)...')
  const backend = await startCameraBackend({ port })
  const total = [...backend.photos.values()].reduce((sum, photo) => sum + photo.bytes, 0)
  console.log(
    `camera uploads: ${backend.photos.size} photos, ${(total / 1e6).toFixed(1)} MB, at ${backend.origin}`
  )
  console.log(`run the site on it:  npx wrangler dev --var API_HOST:${backend.origin}`)
  const stop = () => backend.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
