/**
 * The content backend of spec section 7 as a small Node server on a loopback port, answering
 * the reference seed (content-service/seed/), that the soak test (tests/soak/soak.mjs) switches between ways of
 * failing while the site is under load.
 *
 * POST messages stores contact messages as the reference service does: once per Idempotency-Key
 * (the same key again is answered 200 and counted as a replay, not stored). Its failures are the
 * hard ones for exactly-once delivery: while 'hang' it stores the message and never answers, while
 * 'reset' it stores it and drops the connection, so the site cannot know it arrived; '500' and
 * 'garbage' (a proxy's 502 error page) store nothing.
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
 * @typedef {{ key: string | null, name: string, email: string, comments: string }} StoredMessage
 * @returns {Promise<{ origin: string, setMode: (mode: Mode) => void, calls: Record<Mode, number>,
 *   edit: (page: string, fields: Record<string, unknown>) => void, close: () => Promise<void>,
 *   messages: StoredMessage[], messageCalls: { total: number, replays: number, byMode: Record<Mode, number> } }>}
 *   edit: changes fields of a page's payload (`home`, `about`, ...), as an editor in the CMS would;
 *   messages: every message stored, in order; messageCalls: POST messages received
 */
export async function startFakeBackend() {
  const { pages, pageMeta } = readSeed()
  /** @type {Mode} */
  let mode = 'healthy'
  const calls = /** @type {Record<Mode, number>} */ (
    Object.fromEntries(MODES.map((name) => [name, 0]))
  )
  let garbage = 0
  /** @type {StoredMessage[]} */
  const messages = []
  const messageCalls = {
    total: 0,
    replays: 0,
    byMode: /** @type {Record<Mode, number>} */ (
      Object.fromEntries(MODES.map((name) => [name, 0]))
    ),
  }

  /** Stores a message once per key; true when it was a replay of a stored one. */
  function store(/** @type {string | null} */ key, /** @type {Record<string, string>} */ fields) {
    if (key !== null && messages.some((message) => message.key === key)) return true
    messages.push({
      key,
      name: fields.name ?? '',
      email: fields.email ?? '',
      comments: fields.comments ?? '',
    })
    return false
  }

  /** POST messages in the current mode (read before the body arrives). */
  async function receiveMessage(
    /** @type {import('node:http').IncomingMessage} */ request,
    /** @type {import('node:http').ServerResponse} */ response
  ) {
    const during = mode
    messageCalls.total += 1
    messageCalls.byMode[during] += 1
    const chunks = []
    for await (const chunk of request) chunks.push(chunk)
    if (during === '500')
      return send(response, 500, 'application/json', JSON.stringify({ message: 'backend down' }))
    if (during === 'garbage')
      return send(response, 502, 'text/html', '<html><body>502 Bad Gateway</body></html>')
    let fields
    try {
      fields = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      return send(response, 400, 'application/json', '{"message":"The request body must be JSON"}')
    }
    const key = /** @type {string | undefined} */ (request.headers['idempotency-key']) ?? null
    const replayed = store(key, fields)
    if (replayed) messageCalls.replays += 1
    if (during === 'hang') return // stored, never answered
    if (during === 'reset') return request.socket.destroy() // stored, connection dropped
    send(response, 200, 'application/json', JSON.stringify({ payload: { id: messages.length } }))
  }

  const server = createServer((request, response) => {
    calls[mode] += 1
    const url = new URL(request.url ?? '/', 'http://backend')
    const call = url.pathname.split('/').pop() ?? ''
    if (request.method === 'POST' && call === 'messages')
      return void receiveMessage(request, response)
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
    const payload =
      call === 'page-meta-data'
        ? (pageMeta[url.searchParams.get('page') ?? '/'] ?? {})
        : (pages[CALLS[call]] ?? {})
    if (!(call in CALLS) && call !== 'page-meta-data')
      return send(response, 404, 'application/json', '{"message":"not found"}')
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
    messages,
    messageCalls,
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
