/**
 * The startup bench's floor (scripts/bench/startup.mjs): the least worker this site could be, Hono
 * answering every request with one paragraph streamed by React's `renderToReadableStream`, built
 * with the site's compatibility settings and minification. Never deployed.
 */
import { Hono } from 'hono'
import { renderToReadableStream } from 'react-dom/server'

const app = new Hono()

app.get('*', async (c) => {
  const stream = await renderToReadableStream(<p>Erebuni Development</p>)
  return c.body(stream, 200, { 'Content-Type': 'text/html; charset=utf-8' })
})

export default app
