/**
 * The cold bench's floor (scripts/bench/cold.mjs): the least worker built the site's way, Hono and
 * React's renderToReadableStream of one paragraph, so that the site's CPU per request is printed
 * beside what the same runtime costs for almost nothing, measured in the same run. Its own
 * configuration (./minimal.wrangler.toml) binds nothing.
 */
import { Hono } from 'hono'
import { renderToReadableStream } from 'react-dom/server'

const app = new Hono()

// What the bench waits for before it measures: an answer that renders nothing.
app.get('/ready', (c) => c.text('ready'))

app.get('*', async (c) => {
  const stream = await renderToReadableStream(<p>A paragraph.</p>)
  return c.body(stream, 200, { 'Content-Type': 'text/html; charset=utf-8' })
})

export default app
