/**
 * The Cron Trigger (`[triggers] crons = ["* * * * *"]`): once a minute, network-wide, the one
 * writer of the payload cache refreshes the payloads that would reach CONTENT_TTL before the next
 * run and purges the pages of those that changed (src/freshness/refresh.ts).
 */
import type { Bindings } from './env'
import { pagePurgerFor, repurgerFor, runScheduledRefresh } from './freshness'
import { reportBackgroundError } from './observability'
import { PAGE_PATHS } from './shared/site-paths'

export async function scheduled(
  controller: ScheduledController,
  env: Bindings,
  ctx: ExecutionContext
): Promise<void> {
  const timeout = Number(env.API_TIMEOUT_MS)
  const report = await runScheduledRefresh({
    env,
    waitUntil: (promise) => ctx.waitUntil(promise),
    purger: pagePurgerFor(ctx),
    repurge: repurgerFor(env),
    pages: PAGE_PATHS,
    // The run's time, for the whole run: entries written on the minute age in whole minutes, so each
    // is refreshed exactly once per CONTENT_TTL (rounded up to a minute), however late the run starts.
    now: () => controller.scheduledTime,
    timeoutMs: timeout > 0 ? timeout : undefined,
    onError: (error, { key }) => {
      console.warn(`scheduled refresh: ${key}: ${String(error)}`)
      reportBackgroundError(env, ctx, error, { backend_key: key })
    },
  })
  if (report.refreshed.length || report.failed.length) {
    console.log(
      `scheduled refresh: ${report.refreshed.length} refreshed, changed [${report.changed}], failed [${report.failed}], purged [${report.purged}]`
    )
  }
}
