/**
 * The content backend of spec section 7 as a small Node server on a loopback port, answering
 * the reference seed (content-service/seed/), that the soak test switches between ways of
 * failing while the site is under load.
 */
import { createServer } from 'node:http'
import { readSeed } from '../../content-service/scripts/seed-sql.mjs'

/** How the backend answers right now. */
export const MODES = /** @type {const} */ (['healthy', '500', 'hang', 'garbage', 'reset'])
/** @typedef {(typeof MODES)[number]} Mode */

const CALLS = {
  'get-home-page': 'home',
  'get-about-page': 'about',
  'get-enterprises-page': 'enterprises',
  'contact-us': 'contact-us',
  'navbar-data': 'navbar',
}

/**
 * @returns {Promise<{ origin: string, setMode: (mode: Mode) => void, calls: Record<Mode, number>,
 *   edit: (page: string, fields: Record<string, unknown>) => void, close: () => Promise<void> }>}
 *   edit: changes fields of a page's payload (`home`, `about`, ...), as an editor in the CMS would
 */
export async function startFakeBackend() {
  const { pages, pageMeta } = readSeed()
  /** @type {Mode} */
  let mode = 'healthy'
  const calls = /** @type {Record<Mode, number>} */ (Object.fromEntries(MODES.map((name) => [name, 0])))
  let garbage = 0

  const server = createServer((request, response) => {
    calls[mode] += 1
    const url = new URL(request.url ?? '/', 'http://backend')
    const call = url.pathname.split('/').pop() ?? ''
    switch (mode) {
      case 'hang':
        return // never answers; the site's time-out gives up on it
      case 'reset':
        return request.socket.destroy()
      case '500':
        return send(response, 500, 'application/json', JSON.stringify({ message: 'backend down' }))
      case 'garbage':
        garbage += 1
        return garbage % 2
          ? send(response, 200, 'text/html', '<html><body>502 Bad Gateway</body></html>')
          : send(response, 200, 'application/json', '{"payload": {"title": ')
    }
    const payload = call === 'page-meta-data' ? pageMeta[url.searchParams.get('page') ?? '/'] ?? {} : pages[CALLS[call]] ?? {}
    if (!(call in CALLS) && call !== 'page-meta-data') return send(response, 404, 'application/json', '{"message":"not found"}')
    send(response, 200, 'application/json', JSON.stringify({ payload }))
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())

  return {
    origin: `http://127.0.0.1:${port}`,
    setMode: (next) => {
      mode = next
    },
    calls,
    edit: (page, fields) => {
      pages[page] = { ...pages[page], ...fields }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** @param {import('node:http').ServerResponse} response @param {number} status @param {string} type @param {string} body */
function send(response, status, type, body) {
  response.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) })
  response.end(body)
}
