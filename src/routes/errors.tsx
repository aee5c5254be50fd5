/**
 * What a visitor sees when something goes wrong; never a stack trace.
 * - No route: the 404 page, with the navbar labels if the backend has them at hand.
 * - Backend unavailable with no cached copy: the generic error view, 503.
 * - Anything else: 'Unexpected Application Error!', 500.
 */
import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { ContentError } from '../content/errors'
import { contentFor } from '../freshness'
import type { AppEnv } from '../env'
import { reportError } from '../observability'
import { LoadFailedPage, NotFoundPage, unexpectedErrorHtml } from '../views/pages/error-views'
import { baseShell } from './pages'

export const notFound: NotFoundHandler<AppEnv> = async (c) => {
  const navbar = await contentFor(c)
    .navbar()
    .catch(() => null)
  c.status(404)
  return c.render(<NotFoundPage lng={c.var.lng ?? 'hy'} />, { shell: { ...baseShell(c), navbar } })
}

export const onError: ErrorHandler<AppEnv> = async (error, c) => {
  const lng = c.var.lng ?? 'hy'
  if (error instanceof ContentError) {
    console.warn(`page ${c.req.path} unavailable: ${error.message}`)
    c.status(503)
    c.header('Retry-After', '60')
    c.header('Cache-Control', 'no-store')
    return renderOr500(c, () =>
      c.render(<LoadFailedPage lng={lng} status={503} />, { shell: baseShell(c) })
    )
  }
  console.error(`unexpected error on ${c.req.method} ${c.req.path}`, error)
  reportError(c, error, 'unexpected')
  return unexpected(c)
}

function unexpected(c: Context<AppEnv>) {
  return c.html(unexpectedErrorHtml(c.var.lng ?? 'hy', 500), 500, { 'Cache-Control': 'no-store' })
}

async function renderOr500(c: Context<AppEnv>, render: () => Response | Promise<Response>) {
  try {
    return await render()
  } catch (error) {
    console.error('error view failed to render', error)
    reportError(c, error, 'unexpected')
    return unexpected(c)
  }
}
