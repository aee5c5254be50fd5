/**
 * The bench's floor (scripts/bench/first-load.mjs): the plain page of src/shared/floor-page.ts, a nav and a paragraph in the
 * system font with no stylesheet, image or script, at FLOOR_PAGE_PATH, served by this worker through
 * the same middleware as the site's pages (security headers, CSP), so that what the bench measures
 * on a page is set beside what the same browser and server cost for the least page there is.
 *
 * Only when the BENCH_FLOOR_PAGE var is 'on' (the bench passes it to `wrangler dev`); otherwise,
 * production included, the path is an ordinary unknown address (404).
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { FLOOR_PAGE_HTML, FLOOR_PAGE_PATH } from '../shared/floor-page'

export const benchFloor = new Hono<AppEnv>()

benchFloor.get(FLOOR_PAGE_PATH, (c, next) => {
  if (c.env.BENCH_FLOOR_PAGE !== 'on') return next()
  return c.html(FLOOR_PAGE_HTML)
})
