/**
 * The bench's floor (scripts/first-load.mjs): a plain HTML page, a nav and a paragraph in the
 * system font with no stylesheet, image or script, at FLOOR_PAGE_PATH, served by this worker through
 * the same middleware as the site's pages (security headers, CSP), so that what the bench measures
 * on a page is set beside what the same browser and server cost for the least page there is.
 *
 * Only when the BENCH_FLOOR_PAGE var is 'on' (the bench passes it to `wrangler dev`); otherwise,
 * production included, the path is an ordinary unknown address (404).
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'

export const FLOOR_PAGE_PATH = '/__bench/plain-page'

const FLOOR_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Plain page</title><meta name="description" content="The bench's floor: a plain page."></head>
<body>
<nav><a href="/en">Home</a> <a href="/en/about">About</a> <a href="/en/enterprises">Enterprises</a> <a href="/en/contact-us">Contact</a></nav>
<h1>A plain page</h1>
<p>A nav and a paragraph, served by the same worker as the site's pages: what the browser and the server cost for the least page there is. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.</p>
</body>
</html>
`

export const benchFloor = new Hono<AppEnv>()

benchFloor.get(FLOOR_PAGE_PATH, (c, next) => {
  if (c.env.BENCH_FLOOR_PAGE !== 'on') return next()
  return c.html(FLOOR_PAGE)
})
