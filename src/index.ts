/**
 * The site worker: language routing, page rendering and error pages for /, /en and /ru; previews
 * under /_preview; the publish hook and the scheduled payload refresh.
 * Static files in public/ are served by Workers static assets before this code runs.
 */
import { Hono } from 'hono'
import type { AppEnv, Bindings } from './env'
import { onPayloadsChanged, otherContentFor, pageCache } from './freshness'
import { renditionsWarmer, warmChangedPlaceholders } from './images'
import { language } from './middleware/language'
import { securityHeaders } from './middleware/security-headers'
import { serverTiming } from './middleware/server-timing'
import { httpsOnly } from './middleware/https-only'
import { preview, previewContentFor } from './preview'
import { handleQueueBatch } from './queues'
import { speculationRules } from './middleware/speculation-rules'
import { contact } from './routes/contact'
import { contactResend } from './routes/contact-resend'
import { images } from './routes/images'
import { notFound, onError } from './routes/errors'
import { renderedQuery } from './routes/page-query'
import { isPagePath, PAGE_PATTERNS, routePages } from './routes/pages'
import { PAGE_PATHS } from './shared/site-paths'
import { publish } from './routes/publish'
import { seo } from './routes/seo'
import { telemetry } from './routes/telemetry'
import { scheduled } from './scheduled'
import { renderer } from './views/renderer'

export const app = new Hono<AppEnv>()

app.use('*', securityHeaders())
// Plain HTTP gets a permanent redirect to HTTPS before anything else runs (docs/decisions/0016-https-only.md).
app.use('*', httpsOnly())
// Preview pages: before the speculation rules, language redirects and page cache, none of which
// apply to them (docs/decisions/0045-preview-mode.md).
app.route('/', preview)
// The rule set that prerenders the site's pages on intent, and its header on every HTML response.
app.use('*', speculationRules({ pages: PAGE_PATHS, patterns: PAGE_PATTERNS }))
// Images are not pages: no language redirects, page cache or renderer (docs/decisions/0012-image-route.md).
app.route('/', images)
app.use('*', language())
// Outside the page cache, which it reports on: a copy the page cache stores never carries it (decision 0030).
app.use('*', serverTiming())
// After the language redirects, before any rendering: see docs/decisions/0002-page-cache.md.
app.use('*', pageCache({ pageQuery: renderedQuery, isPage: isPagePath }))
app.use('*', renderer)

// The contact form's POST routes: /api/contact and each language's /contact-us.
app.route('/', contact)
app.route('/', contactResend)
app.route('/', publish)
app.route('/', seo)
app.route('/', telemetry)
routePages(app)

app.notFound(notFound)
app.onError(onError)

// Changed payloads' images get their placeholders before most visitors ask for the pages, and
// (after the publish hook's answer) the renditions the changed pages name.
otherContentFor.push((c) => (c.var.preview ? previewContentFor(c) : undefined))
onPayloadsChanged.push(warmChangedPlaceholders)
onPayloadsChanged.push(
  renditionsWarmer({
    fetch: (...args) => app.fetch(...args),
    pagePaths: PAGE_PATHS,
    isPage: isPagePath,
  })
)

/**
 * Requests, the Cron Trigger that keeps payloads fresh, and the queues: the delayed second purge
 * (docs/decisions/0004-content-freshness.md) and the contact outbox (docs/decisions/0007-contact-outbox.md).
 */
export default {
  fetch: app.fetch,
  scheduled,
  queue: handleQueueBatch,
} satisfies ExportedHandler<Bindings>
