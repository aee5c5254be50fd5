/**
 * Editors' drafts of the page calls, behind the editors' token (../editor-token.ts):
 *
 *   PUT  drafts/<endpoint>          body: the payload object (as `payload` of the call's answer)
 *        200 {"payload": {"draft": endpoint}}: stored, replacing any earlier draft
 *   POST drafts/<endpoint>/publish  the draft becomes the published payload, then the site's
 *        publish hook is called: 200 {"payload": {"published": endpoint, "hook": ...}}
 *
 * 401 without the token, 503 when the service has none (EDITOR_TOKEN unset), 404 for an endpoint
 * that is not a page call (or, on publish, that has no draft), 400 for a body that is not a JSON
 * object, 413 over DRAFT_BODY_LIMIT. Reads of the page calls with the token answer the draft where
 * there is one (./pages.ts); reads without it never do.
 */
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { createMiddleware } from 'hono/factory'
import { carriesEditorToken } from '../editor-token'
import type { AppEnv } from '../env'
import { callPublishHook } from '../publish-hook'
import { publishDraft, putDraft } from '../queries'
import { errorResponse, payloadResponse } from '../responses'
import { PAGE_CALLS } from './pages'

/** Bytes of a draft's body: the largest seeded payload is a few kilobytes. */
export const DRAFT_BODY_LIMIT = 256 * 1024

export const drafts = new Hono<AppEnv>()

const editorsOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.env.EDITOR_TOKEN)
    return errorResponse(c, 503, 'Drafts are off: the service has no EDITOR_TOKEN')
  if (!carriesEditorToken(c))
    return errorResponse(c, 401, 'Drafts need the editors\u2019 token as the Authorization header')
  await next()
})

const pageCall = createMiddleware<AppEnv>(async (c, next) => {
  const endpoint = c.req.param('endpoint') ?? ''
  if (!Object.hasOwn(PAGE_CALLS, endpoint))
    return errorResponse(
      c,
      404,
      `No drafts of "${endpoint}": drafts are kept for ${Object.keys(PAGE_CALLS).join(', ')}`
    )
  await next()
})

drafts.put(
  '/drafts/:endpoint',
  editorsOnly,
  pageCall,
  bodyLimit({
    maxSize: DRAFT_BODY_LIMIT,
    onError: (c) => errorResponse(c, 413, `A draft may be at most ${DRAFT_BODY_LIMIT} bytes`),
  }),
  async (c) => {
    let payload: unknown
    try {
      payload = JSON.parse(await c.req.text())
    } catch {
      return errorResponse(c, 400, 'The draft must be JSON: the payload object of the call')
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
      return errorResponse(c, 400, 'The draft must be a JSON object: the payload of the call')
    const endpoint = c.req.param('endpoint')
    await putDraft(c.env.CONTENT_DB, endpoint, payload)
    return payloadResponse(c, { draft: endpoint })
  }
)

drafts.post('/drafts/:endpoint/publish', editorsOnly, pageCall, async (c) => {
  const endpoint = c.req.param('endpoint')
  if (!(await publishDraft(c.env.CONTENT_DB, endpoint, PAGE_CALLS[endpoint]!)))
    return errorResponse(c, 404, `"${endpoint}" has no draft to publish`)
  return payloadResponse(c, { published: endpoint, hook: await callPublishHook(c.env, endpoint) })
})
