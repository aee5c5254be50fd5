// @ts-check
/**
 * A stand-in for Workers Cache in front of a local `wrangler dev`, so the smoke's platform checks
 * run in tests: a Node proxy on loopback around the RFC 9111 shared cache the bench and the worker
 * tests use (scripts/lib/edge-cache.mjs, which reads `Cloudflare-CDN-Cache-Control`, else
 * `CDN-Cache-Control`, else `Cache-Control`, as Cloudflare documents). The proxy adds what
 * Cloudflare adds to an answer: `CF-Ray` always, `Cf-Cache-Status` from how the cache answered
 * (https://developers.cloudflare.com/cache/concepts/cache-responses/); the cache adds `Age` to a
 * stored copy. It drops stored copies by `Cache-Tag` when the publish hook answers that it purged
 * those tags (the worker's own purge is a no-op locally). Modes break one thing each, as a
 * misconfigured platform or a bad deploy would, by changing what the cache is given:
 *
 * - `honest`: as described;
 * - `cache-control-only`: the worker's answers reach the cache without their CDN-targeted fields,
 *   so it reads `Cache-Control` alone, as a cache that ignores them would (decision 0017's open
 *   question);
 * - `no-purge`: purges never reach the cache (its second);
 * - `broken`: the worker's answers lose Content-Security-Policy and an unknown page's 404 becomes 200.
 */
import { createServer, request as httpRequest } from 'node:http'
import { createEdgeCache } from '../../scripts/lib/edge-cache.mjs'

/** @typedef {'honest' | 'cache-control-only' | 'no-purge' | 'broken'} Mode */
/** @typedef {(answer: Response) => Response} Alteration */

const PUBLISH_HOOK = '/api/publish'
/** Headers of one connection, never passed through a proxy. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']

/** @type {Alteration} */
const unchanged = (answer) => answer

/** @type {Record<Mode, { alter: Alteration, purges: boolean }>} */
const MODES = {
  honest: { alter: unchanged, purges: true },
  'cache-control-only': {
    alter: (answer) =>
      withHeaders(answer, (headers) => {
        headers.delete('Cloudflare-CDN-Cache-Control')
        headers.delete('CDN-Cache-Control')
      }),
    purges: true,
  },
  'no-purge': { alter: unchanged, purges: false },
  broken: {
    alter: (answer) =>
      withHeaders(
        answer,
        (headers) => headers.delete('Content-Security-Policy'),
        answer.status === 404 ? 200 : answer.status
      ),
    purges: true,
  },
}

/**
 * Cloudflare's name for each way the cache answered (scripts/lib/edge-cache.mjs's outcomes; a miss
 * is MISS when the answer was stored, else DYNAMIC).
 * @type {Record<string, string>}
 */
const CACHE_STATUS = {
  miss: 'MISS',
  fresh: 'HIT',
  stale: 'UPDATING',
  'stale-if-error': 'STALE',
  revalidated: 'EXPIRED',
}

/**
 * @param {string} upstream the site's origin
 * @param {Mode} mode
 * @param {string} clientAddress sent as CF-Connecting-IP, so each proxy has its own rate-limit budget
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function startFakeFrontCache(upstream, mode, clientAddress) {
  const { alter, purges } = MODES[mode]
  const edge = createEdgeCache({
    origin: async (request) => alter(await forward(upstream, request, clientAddress)),
  })
  let rays = 0

  const server = createServer(async (incoming, outgoing) => {
    try {
      const chunks = []
      for await (const chunk of incoming) chunks.push(chunk)
      const request = visitorRequest(incoming, chunks.length ? Buffer.concat(chunks) : undefined)
      const { response, outcome } = await edge.fetch(request)
      const body = new Uint8Array(await response.arrayBuffer())
      if (purges && new URL(request.url).pathname === PUBLISH_HOOK && response.status === 200) {
        const { purged } = JSON.parse(new TextDecoder().decode(body))
        edge.purgeTags(Array.isArray(purged) ? purged : [])
      }
      const status =
        outcome === 'miss' && !edge.policyFor(request)
          ? 'DYNAMIC'
          : (CACHE_STATUS[outcome] ?? outcome)
      const headers = new Headers(response.headers)
      headers.set('CF-Ray', `fake-${++rays}`)
      headers.set('Cf-Cache-Status', status)
      outgoing.writeHead(response.status, Object.fromEntries(headers))
      outgoing.end(body)
    } catch (error) {
      outgoing
        .writeHead(502, { 'Content-Type': 'text/plain' })
        .end(`fake front cache: ${String(error)}`)
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  }
}

/**
 * The visitor's request as the cache reads it: at the address the visitor asked for.
 * @param {import('node:http').IncomingMessage} incoming
 * @param {Buffer | undefined} body
 */
function visitorRequest(incoming, body) {
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers))
    if (value !== undefined && !HOP_BY_HOP.includes(name))
      headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  const method = incoming.method ?? 'GET'
  return new Request(new URL(incoming.url ?? '/', `http://${incoming.headers.host}`), {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' || !body ? undefined : new Uint8Array(body),
  })
}

/**
 * The request to the worker, with the visitor's Host as Cloudflare sends it (the worker builds its
 * addresses from it) and uncompressed, so the proxy passes bodies on as they are.
 * @param {string} upstream
 * @param {Request} request
 * @param {string} clientAddress
 * @returns {Promise<Response>}
 */
async function forward(upstream, request, clientAddress) {
  const target = new URL(upstream)
  const url = new URL(request.url)
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined
  const headers = {
    ...Object.fromEntries(request.headers),
    host: url.host,
    'cf-connecting-ip': clientAddress,
    'accept-encoding': 'identity',
    ...(body ? { 'content-length': String(body.length) } : {}),
  }
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
      },
      (answer) => {
        const chunks = /** @type {Buffer[]} */ ([])
        answer.on('data', (chunk) => chunks.push(chunk))
        answer.on('end', () => {
          const out = new Headers()
          for (const [name, value] of Object.entries(answer.headers))
            if (value !== undefined && ![...HOP_BY_HOP, 'content-encoding'].includes(name))
              out.set(name, Array.isArray(value) ? value.join(', ') : value)
          const status = answer.statusCode ?? 502
          const bytes = Buffer.concat(chunks)
          resolve(new Response(bytes.length ? bytes : null, { status, headers: out }))
        })
        answer.on('error', reject)
      }
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

/**
 * `answer` with its headers changed by `change`, and its status `status`.
 * @param {Response} answer
 * @param {(headers: Headers) => void} change
 * @param {number} [status]
 */
function withHeaders(answer, change, status = answer.status) {
  const headers = new Headers(answer.headers)
  change(headers)
  return new Response(answer.body, { status, headers })
}
