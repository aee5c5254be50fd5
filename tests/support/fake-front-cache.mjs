// @ts-check
/**
 * A stand-in for Workers Cache in front of a local `wrangler dev`, so the smoke's platform checks
 * run in tests: a Node proxy on loopback that stores GET answers by their caching policy (and `Vary:
 * Accept`), read as Cloudflare documents it: `Cloudflare-CDN-Cache-Control`, else
 * `CDN-Cache-Control`, else `Cache-Control`, the first never passed on downstream
 * (https://developers.cloudflare.com/cache/concepts/cdn-cache-control/); serves them with
 * `Cf-Cache-Status` and `Age`, adds `CF-Ray` as Cloudflare does, and
 * drops stored pages by `Cache-Tag` when the publish hook answers that it purged those tags (the
 * worker's own purge is a no-op locally). Modes break one thing each, as a misconfigured platform
 * or a bad deploy would:
 *
 * - `honest`: as described;
 * - `cache-control-only`: reads `Cache-Control` alone, as a cache that ignores the CDN-targeted
 *   fields would (decision 0017's open question);
 * - `no-purge`: ignores purges (its second);
 * - `broken`: drops Content-Security-Policy and answers an unknown page's 404 as 200.
 */
import { createServer, request as httpRequest } from 'node:http'

/** @typedef {'honest' | 'cache-control-only' | 'no-purge' | 'broken'} Mode */

/**
 * @param {string} upstream the site's origin
 * @param {Mode} mode
 * @param {string} clientAddress sent as CF-Connecting-IP, so each proxy has its own rate-limit budget
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function startFakeFrontCache(upstream, mode, clientAddress) {
  /** @type {Map<string, { status: number, headers: [string, string][], body: Buffer, storedAt: number, freshMs: number, tags: string[] }>} */
  const stored = new Map()
  let rays = 0

  const server = createServer(async (request, response) => {
    try {
      const chunks = []
      for await (const chunk of request) chunks.push(chunk)
      const url = new URL(request.url ?? '/', upstream)
      const accept = request.headers.accept ?? ''
      const key = `${url.pathname}${url.search}|${accept}`
      const extra = { 'CF-Ray': `fake-${++rays}` }
      const entry =
        request.method === 'GET'
          ? (stored.get(key) ?? stored.get(`${url.pathname}${url.search}|`))
          : undefined
      if (entry && Date.now() - entry.storedAt < entry.freshMs) {
        const age = String(Math.floor((Date.now() - entry.storedAt) / 1000))
        const etag = entry.headers.find(([name]) => name === 'etag')?.[1]
        if (etag && request.headers['if-none-match'] === etag)
          return send(response, 304, entry.headers, Buffer.alloc(0), {
            ...extra,
            'Cf-Cache-Status': 'HIT',
            Age: age,
          })
        return send(response, entry.status, entry.headers, entry.body, {
          ...extra,
          'Cf-Cache-Status': 'HIT',
          Age: age,
        })
      }

      // Forwarded with the visitor's Host, as Cloudflare does: the worker builds its addresses from it.
      const answer = await forward(
        upstream,
        request,
        chunks.length ? Buffer.concat(chunks) : undefined,
        clientAddress
      )
      const body = answer.body
      /** @type {[string, string][]} */
      const answerHeaders = [...answer.headers].filter(
        ([name]) =>
          ![
            'content-encoding',
            'content-length',
            'transfer-encoding',
            'connection',
            'keep-alive',
            'cloudflare-cdn-cache-control',
          ].includes(name)
      )
      let status = answer.status
      if (mode === 'broken') {
        if (status === 404) status = 200
        answerHeaders.splice(
          0,
          answerHeaders.length,
          ...answerHeaders.filter(([name]) => name !== 'content-security-policy')
        )
      }

      if (url.pathname === '/api/publish' && status === 200 && mode !== 'no-purge') {
        const purged = /** @type {string[]} */ (JSON.parse(body.toString()).purged ?? [])
        for (const [storedKey, { tags }] of stored)
          if (tags.some((tag) => purged.includes(tag))) stored.delete(storedKey)
      }
      const freshMs =
        request.method === 'GET' && status === 200 ? freshness(policyOf(answer.headers, mode)) : 0
      if (freshMs > 0) {
        const varyAccept = /accept(?!-)/i.test(answer.headers.get('Vary') ?? '')
        const tags = (answer.headers.get('Cache-Tag') ?? '')
          .split(',')
          .map((tag) => tag.trim())
          .filter(Boolean)
        stored.set(varyAccept ? key : `${url.pathname}${url.search}|`, {
          status,
          headers: answerHeaders,
          body,
          storedAt: Date.now(),
          freshMs,
          tags,
        })
      }
      send(response, status, answerHeaders, body, {
        ...extra,
        'Cf-Cache-Status': freshMs > 0 ? 'MISS' : 'DYNAMIC',
      })
    } catch (error) {
      response
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
 * @param {string} upstream
 * @param {import('node:http').IncomingMessage} incoming
 * @param {Buffer | undefined} body
 * @param {string} clientAddress
 * @returns {Promise<{ status: number, headers: Headers, body: Buffer }>}
 */
function forward(upstream, incoming, body, clientAddress) {
  const target = new URL(upstream)
  const headers = {
    ...incoming.headers,
    'cf-connecting-ip': clientAddress,
    'accept-encoding': 'identity',
  }
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers,
      },
      (answer) => {
        const chunks = /** @type {Buffer[]} */ ([])
        answer.on('data', (chunk) => chunks.push(chunk))
        answer.on('end', () => {
          const out = new Headers()
          for (const [name, value] of Object.entries(answer.headers))
            if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(', ') : value)
          resolve({ status: answer.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) })
        })
        answer.on('error', reject)
      }
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

/** The caching policy this cache obeys: the most specific header the answer has. */
function policyOf(/** @type {Headers} */ headers, /** @type {Mode} */ mode) {
  if (mode === 'cache-control-only') return headers.get('Cache-Control') ?? ''
  return (
    headers.get('Cloudflare-CDN-Cache-Control') ??
    headers.get('CDN-Cache-Control') ??
    headers.get('Cache-Control') ??
    ''
  )
}

/** Milliseconds a shared cache may serve the answer without asking the worker. */
function freshness(/** @type {string} */ policy) {
  if (/no-store|private|no-cache/.test(policy)) return 0
  const sMaxage = /s-maxage=(\d+)/.exec(policy)?.[1]
  const maxAge = /(?:^|[\s,])max-age=(\d+)/.exec(policy)?.[1]
  return Number(sMaxage ?? maxAge ?? 0) * 1000
}

/**
 * @param {import('node:http').ServerResponse} response
 * @param {number} status
 * @param {[string, string][]} headers
 * @param {Buffer} body
 * @param {Record<string, string>} extra
 */
function send(response, status, headers, body, extra) {
  const out = new Headers(headers)
  for (const [name, value] of Object.entries(extra)) out.set(name, value)
  response.writeHead(status, Object.fromEntries(out))
  response.end(status === 304 ? undefined : body)
}
