/**
 * The plain page that first-load figures are set beside (the machine's floor): a nav and a
 * paragraph in the system font, with no stylesheet, image or script. The harness worker serves it
 * (./worker.ts) through the site's own outer middleware, for scripts/bench/first-load.mjs.
 */
import { Hono } from 'hono'
import { httpsOnly } from '../../../src/middleware/https-only'
import { securityHeaders } from '../../../src/middleware/security-headers'
import { speculationRules } from '../../../src/middleware/speculation-rules'
import { PAGE_PATTERNS } from '../../../src/routes/pages'
import { PAGE_PATHS } from '../../../src/shared/site-paths'

export const FLOOR_PAGE_PATH = '/__bench/plain-page'

export const FLOOR_PAGE_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Plain page</title><meta name="description" content="The bench's floor: a plain page."></head>
<body>
<nav><a href="/en">Home</a> <a href="/en/about">About</a> <a href="/en/enterprises">Enterprises</a> <a href="/en/contact-us">Contact</a></nav>
<main>
<h1>A plain page</h1>
<p>A nav and a paragraph, served by the same worker as the site's pages: what the browser and the server cost for the least page there is. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.</p>
</main>
</body>
</html>
`

/** The plain page with the headers every page of the site gets before routing (src/index.ts). */
export const floorPage = new Hono()
  .use('*', securityHeaders())
  .use('*', httpsOnly())
  .use('*', speculationRules({ pages: PAGE_PATHS, patterns: PAGE_PATTERNS }))
  .get(FLOOR_PAGE_PATH, (c) => c.html(FLOOR_PAGE_HTML))
