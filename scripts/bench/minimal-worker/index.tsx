/**
 * The bench's floor worker: the least worker this site could be, Hono answering every request with
 * one paragraph streamed by React's `renderToReadableStream`, built with the site's compatibility
 * settings and minification. The startup step (scripts/bench/startup.mjs) profiles its startup and
 * the cold step (scripts/bench/cold.mjs) its CPU per request, beside the site's in the same run.
 * Never deployed.
 */
import { Hono } from 'hono'
import { renderToReadableStream } from 'react-dom/server'

const app = new Hono()

// What the cold step waits for before it measures: an answer that renders nothing.
app.get('/ready', (c) => c.text('ready'))

app.get('*', async (c) => {
  const stream = await renderToReadableStream(<p>Erebuni Development</p>)
  return c.body(stream, 200, { 'Content-Type': 'text/html; charset=utf-8' })
})

export default app
