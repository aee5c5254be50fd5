/**
 * An HTTP proxy on a free loopback port to `origin` that drops one response header: the bench
 * serves a site without one of its headers through it (Referrer-Policy for Lighthouse, the
 * Speculation-Rules header for navigations without the rules). It never keeps the process alive.
 */
import http from 'node:http'

export async function startHeaderDroppingProxy(origin, droppedHeader) {
  const target = new URL(origin)
  const server = http.createServer((request, response) => {
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        const headers = { ...answer.headers }
        delete headers[droppedHeader]
        response.writeHead(answer.statusCode ?? 502, headers)
        answer.pipe(response)
      }
    )
    upstream.on('error', () => response.destroy())
    request.pipe(upstream)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  server.unref()
  return { server, origin: `http://127.0.0.1:${server.address().port}` }
}
