/**
 * The harness worker: the site's worker (src/index.ts), unchanged, with what only tests and the
 * bench need around it. Run by the browser tests' server (`npm run e2e:server`) and the bench's
 * site (scripts/bench/index.mjs, scripts/profile-render.mjs) as
 * `wrangler dev scripts/lib/harness-worker/worker.ts -c wrangler.toml ...`; never deployed.
 *
 * Besides the site it:
 * - serves the bench's plain page at FLOOR_PAGE_PATH (./floor-page.ts);
 * - skips the page cache, or both caches, for a request that asks with the CACHE_BYPASS_TOKEN var
 *   (./cache-bypass.ts);
 * - answers a beacon with the data points written for it (./telemetry-echo.ts).
 * The Cron Trigger and the queues reach the site as they are.
 */
import site from '../../../src/index'
import type { Bindings } from '../../../src/env'
import { bypassedEnv, markBypassed, requestedBypass } from './cache-bypass'
import { FLOOR_PAGE_PATH, floorPage } from './floor-page'
import { echoed, isBeacon, recordingVitals } from './telemetry-echo'

export type HarnessBindings = Bindings & {
  /** The secret a bench request sends to skip the caches (X-Cache-Bypass-Token); unset: never. */
  CACHE_BYPASS_TOKEN?: string
}

export default {
  async fetch(request, env, ctx) {
    if (new URL(request.url).pathname === FLOOR_PAGE_PATH) return floorPage.fetch(request)
    if (isBeacon(request)) {
      const { env: recording, points } = recordingVitals(env)
      return echoed(await site.fetch(request, recording, ctx), points)
    }
    const bypass = requestedBypass(request, env.CACHE_BYPASS_TOKEN)
    if (!bypass) return site.fetch(request, env, ctx)
    return markBypassed(await site.fetch(request, bypassedEnv(env, bypass), ctx))
  },
  scheduled: site.scheduled,
  queue: site.queue,
} satisfies ExportedHandler<HarnessBindings>
