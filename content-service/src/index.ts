/**
 * The reference content service: every call of spec section 7 under `/api/{product}/...`,
 * answering `{"payload": ...}` with the field names of shared/spec/payload-fields.md.
 *
 * `{product}` may be any segment: the service holds one site, and the site worker's PRODUCT var
 * ("erebuni") only has to be a single path segment. Errors are JSON `{"message": ...}` too:
 * 400 for bad input, 404 for unknown routes and unseeded content, 500 for the unexpected.
 * Editors keep drafts of the page calls, read with their token (./routes/drafts.ts).
 */
import { Hono } from 'hono'
import type { AppEnv } from './env'
import { errorResponse } from './responses'
import { drafts } from './routes/drafts'
import { messages } from './routes/messages'
import { pages } from './routes/pages'

export const app = new Hono<AppEnv>()

// Payloads change whenever the seed is re-run; the site keeps its own cache in KV.
app.use('*', async (c, next) => {
  await next()
  c.header('Cache-Control', 'no-store')
})

app.route('/api/:product', pages)
app.route('/api/:product', messages)
app.route('/api/:product', drafts)

app.notFound((c) =>
  errorResponse(c, 404, `Not found: ${c.req.method} ${new URL(c.req.url).pathname}`)
)

app.onError((error, c) => {
  console.error('content service error', error)
  return errorResponse(c, 500, 'Internal error of the content service')
})

export default app
