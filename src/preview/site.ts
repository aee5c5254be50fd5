/**
 * The preview site: the site's own page routes (src/routes/pages.tsx, mounted as src/index.ts mounts
 * them) behind the preview gate, at `/_preview/<page path>`. It routes on the path after the
 * prefix, so each page renders with the language and page key of its public address; its answers
 * are never cached and lead to other previews (./preview-answers.ts). Around it runs only what the
 * whole site runs first (security headers, HTTPS); no speculation rules, language redirects or page
 * cache. Why: docs/decisions/0045-preview-mode.md.
 */
import { Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import { getPath } from 'hono/utils/url'
import type { AppEnv } from '../env'
import { canonicalPath } from '../middleware/language'
import { notFound, onError } from '../routes/errors'
import { routePages } from '../routes/pages'
import { splitLanguagePrefix } from '../shared/languages'
import { previewPathOf, publicPathOf } from '../shared/site-paths'
import { renderer } from '../views/renderer'
import { enter } from './enter'
import { exit } from './exit'
import { previewGate } from './gate'
import { previewAnswers } from './preview-answers'
import { contentReport } from './report-route'

/** The page's language and key from the public path after the prefix; other spellings redirect. */
const previewLanguage = createMiddleware<AppEnv>(async (c, next) => {
  const path = c.req.path
  const canonical = canonicalPath(path)
  if (canonical !== path) {
    const { search } = new URL(c.req.url)
    return c.redirect(`${previewPathOf(canonical)}${search}`, 302)
  }
  const { lng, path: pageKey } = splitLanguagePrefix(path)
  c.set('lng', lng)
  c.set('pageKey', pageKey)
  await next()
})

export const previewSite = new Hono<AppEnv>({
  getPath: (request) => publicPathOf(getPath(request)) ?? '/',
})

previewSite.use('*', previewAnswers)
previewSite.route('/', enter)
previewSite.route('/', exit)
previewSite.use('*', previewLanguage)
previewSite.use('*', previewGate)
previewSite.use('*', renderer)
// The preview's own pages (the content report's) go here, before the site's pages.
previewSite.route('/', contentReport)
routePages(previewSite)

previewSite.notFound(notFound)
previewSite.onError(onError)
