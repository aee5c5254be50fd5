/**
 * What Playwright and Puppeteer observe through their protocols, for a driver that observes
 * nothing (WebKitWebDriver speaks classic WebDriver only): a reverse proxy in front of the site
 * that records every response's status into a ProblemLog and counts error reports, and puts a
 * probe script first in every page's <head>. The site sees its own address (Host, Origin and
 * Referer rewritten; redirects rewritten back), so its caches (the image route's) are the same
 * as for every other engine. The probe records console errors, uncaught errors,
 * unhandled rejections and CSP refusals in sessionStorage, where they outlive the page they
 * happened on, for the driver to read (`takeProbedProblems`). The probe comes from the page's own
 * origin, so the site's CSP ('self') allows it.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ProblemLog } from './problem-log'

const PROBE_PATH = '/__visitor-probe.js'
const PROBE_KEY = 'visitor-probe'

const PROBE = `(() => {
  const record = (text) => {
    try {
      const list = JSON.parse(sessionStorage.getItem(${JSON.stringify(PROBE_KEY)}) || '[]')
      list.push(text)
      sessionStorage.setItem(${JSON.stringify(PROBE_KEY)}, JSON.stringify(list))
    } catch {}
  }
  const describe = (value) => (value instanceof Error ? value.stack || String(value) : String(value))
  const consoleError = console.error
  console.error = function (...args) {
    record('console error: ' + args.map(describe).join(' '))
    return consoleError.apply(this, args)
  }
  addEventListener('error', (event) => record('page error: ' + (event.error ? describe(event.error) : event.message)))
  addEventListener('unhandledrejection', (event) => record('page error: unhandled rejection: ' + describe(event.reason)))
  addEventListener('securitypolicyviolation', (event) => record('console error: CSP refused ' + event.blockedURI + ' (' + event.violatedDirective + ')'))
})()
`

export type WatchingProxy = {
  origin: string
  problems: ProblemLog
  reports: () => number
  /** The status of the last document answered at `url` (WebKitGTK's Navigation Timing has no responseStatus). */
  documentStatus: (url: string) => number | undefined
  /** Where the browser opens a site address (a path, or a URL on the site's origin): through the proxy. */
  addressOf: (address: string) => string
  close: () => Promise<void>
}

/** Starts a proxy to the site at `target` on a free port of 127.0.0.1; its `problems` are the site's, as seen by the browser. */
export async function startWatchingProxy(target: string): Promise<WatchingProxy> {
  const upstream = new URL(target)
  let reports = 0
  const documents = new Map<string, number>()
  let origin = ''
  let problems: ProblemLog
  const server: Server = createServer((incoming, outgoing) => {
    if (incoming.url === PROBE_PATH) {
      outgoing.writeHead(200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'no-store',
      })
      outgoing.end(PROBE)
      return
    }
    const url = `${origin}${incoming.url}`
    if (incoming.method === 'POST' && new URL(url).pathname === '/api/client-errors') reports += 1
    const headers: IncomingHttpHeaders = {
      ...incoming.headers,
      host: upstream.host,
      'accept-encoding': 'identity',
    }
    for (const name of ['origin', 'referer'] as const)
      headers[name] &&= String(headers[name]).replace(origin, upstream.origin)
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers,
      },
      (answer) => {
        problems.response(incoming.method ?? 'GET', url, answer.statusCode ?? 0)
        if (incoming.headers['sec-fetch-dest'] === 'document')
          documents.set(url, answer.statusCode ?? 0)
        if (answer.headers.location)
          answer.headers.location = answer.headers.location.replace(upstream.origin, origin)
        const isHtml = (answer.headers['content-type'] ?? '').startsWith('text/html')
        if (!isHtml) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(outgoing)
          return
        }
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          const html = Buffer.concat(chunks).toString('utf8')
          const probe = `<script src="${PROBE_PATH}"></script>`
          const body = /<head[^>]*>/i.test(html)
            ? html.replace(/<head[^>]*>/i, (head) => head + probe)
            : probe + html
          const {
            'content-length': _length,
            'transfer-encoding': _encoding,
            etag: _etag,
            ...rest
          } = answer.headers
          outgoing.writeHead(answer.statusCode ?? 502, {
            ...rest,
            'content-length': Buffer.byteLength(body),
          })
          outgoing.end(body)
        })
      }
    )
    forward.on('error', (error) => {
      problems.requestFailed(incoming.method ?? 'GET', url, error.message, false)
      outgoing.destroy()
    })
    incoming.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  problems = new ProblemLog(origin)
  return {
    origin,
    problems,
    reports: () => reports,
    documentStatus: (url) => documents.get(url),
    addressOf: (address) => {
      const url = new URL(address, upstream)
      return url.origin === upstream.origin
        ? origin + url.pathname + url.search + url.hash
        : url.href
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** In the page: the problems the probe recorded since the last call, forgotten. */
export function takeProbedProblems(key: string): string[] {
  const list = JSON.parse(sessionStorage.getItem(key) || '[]') as string[]
  sessionStorage.removeItem(key)
  return list
}

export { PROBE_KEY }
