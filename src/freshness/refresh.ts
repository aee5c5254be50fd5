/**
 * The one writer of the payload cache: refreshes payloads from the backend, stores them and purges
 * the pages of those that changed. The Cron Trigger (`* * * * *`, one invocation network-wide)
 * runs it every minute for the payloads that would reach CONTENT_TTL before the next run; the
 * publish hook runs it at once for the payloads a CMS names. Why this shape:
 * docs/decisions/0004-content-freshness.md.
 *
 * A purge races KV's propagation (about 60 s): a data centre may render a purged page again from
 * the payload it still reads. So the scheduled run also purges the payloads whose content changed
 * between one and two minutes ago (each entry says when it last changed): exactly one run falls in
 * that window, and by then every data centre reads the new payload. Nothing but the payload entries
 * records this, so there is no shared key for concurrent runs to overwrite. Where a queue is bound,
 * a second purge also follows each change about a minute later, whenever it happened (./repurge.ts).
 */
import type { Bindings } from '../env'
import type { PagePurger } from './purge'
import type { Repurger } from './repurge'
import { contentTtlSeconds } from './payload-cache'
import {
  createContentClient,
  type ContentClientOptions,
  type PayloadSource,
} from './content-client'
import type { PayloadEndpoint } from '../content/payload-catalogue'
import { isolateMemo } from './isolate-memo'
import {
  HEARTBEAT_KEY,
  HEARTBEAT_MEMO_MS,
  HEARTBEAT_STALE_MS,
  SCHEDULE_INTERVAL_MS,
} from './refresh-schedule'

/** How long KV takes to reach every data centre (about 60 s): a purge is repeated this long after. */
export const KV_PROPAGATION_MS = 60_000

/**
 * Called after payloads changed and were stored, with their sources. Hook point for other work that
 * depends on content, registered once in src/index.ts (the image placeholders' and renditions'
 * warm-ups). Awaited before the refresh returns; work that may outlast the publish hook's answer
 * goes to `context.waitUntil`.
 */
export type PayloadsChangedListener = (
  env: Bindings,
  changed: PayloadSource[],
  context: ChangeContext
) => Promise<void> | void
/** Where the change was stored: the site's origin when a request on it made it (the publish hook). */
export type ChangeContext = {
  origin?: string
  waitUntil: (promise: Promise<unknown>) => void
}
export const onPayloadsChanged: PayloadsChangedListener[] = []

export type RefreshOptions = {
  env: Bindings
  waitUntil: (promise: Promise<unknown>) => void
  purger: PagePurger
  /** Schedules the second purge of changed tags once KV has propagated (./repurge.ts); optional. */
  repurge?: Repurger
  /** Page keys ('/', '/about', ...): page meta data is cached once for each. */
  pages: readonly string[]
  /** The endpoints to refresh; default all. */
  endpoints?: readonly PayloadEndpoint[]
  /** Refresh every named payload now, whatever its age (the publish hook). */
  force?: boolean
  /**
   * Purge the pages of every refreshed payload, changed or not (the publish hook's
   * `purgeUnchanged`: an operator's, or the smoke's, check that purging works).
   */
  purgeUnchanged?: boolean
  now?: () => number
  timeoutMs?: number
  /** The site's origin, when a request on it asked for the refresh (the publish hook); for listeners. */
  origin?: string
  /**
   * Told about each payload that could not be refreshed (its last good entry stays), with its tag
   * (as `failed` lists it), and about other errors, without one.
   */
  onError?: (error: unknown, context: { key: string; tag?: string }) => void
  /** Told about each payload loaded from the backend, as sent and as parsed (the publish hook's content report). */
  onLoaded?: ContentClientOptions['onLoaded']
}

export type RefreshReport = {
  /** Tags of the payloads loaded from the backend. */
  refreshed: string[]
  /** Tags of those whose content changed. */
  changed: string[]
  /** Tags of those the backend did not deliver; nothing was written for them. */
  failed: string[]
  /**
   * Tags purged from the page cache: the changed ones (with `purgeUnchanged`, all refreshed ones),
   * and those that changed one to two minutes ago.
   */
  purged: string[]
  /**
   * Of `purged`, those purged again because their content changed one to two minutes ago, whatever
   * this call refreshed: how the smoke tells that repeat from a purge of unchanged content.
   */
  purgedAgain: string[]
}

/** Refreshes the due (or, with `force`, all named) payloads, then purges the pages of the changed ones. */
export async function refreshPayloads(options: RefreshOptions): Promise<RefreshReport> {
  const { env } = options
  const client = createContentClient({
    env,
    waitUntil: options.waitUntil,
    now: options.now,
    timeoutMs: options.timeoutMs,
    onError: options.onError,
    onLoaded: options.onLoaded,
  })
  const sources = client.sources(options.pages, options.endpoints)
  const now = options.now ?? Date.now
  const stamps = await Promise.all(sources.map((source) => source.stamp()))
  // Due: missing, or it would be past CONTENT_TTL at the next run.
  const ttlMs = contentTtlSeconds(env) * 1000
  const due = sources.filter((_, index) => {
    const stamp = stamps[index]
    return options.force || !stamp || now() - stamp.storedAt + SCHEDULE_INTERVAL_MS > ttlMs
  })
  // Changed one to two minutes ago (by this refresher or another run): purge its pages once more.
  const again = sources.filter((_, index) => {
    const age = now() - (stamps[index]?.changedAt ?? -Infinity)
    return age >= KV_PROPAGATION_MS && age < KV_PROPAGATION_MS + SCHEDULE_INTERVAL_MS
  })

  const outcomes = await Promise.allSettled(due.map((source) => source.refresh()))
  const report: RefreshReport = {
    refreshed: [],
    changed: [],
    failed: [],
    purged: [],
    purgedAgain: again.map(({ tag }) => tag),
  }
  const changed: PayloadSource[] = []
  outcomes.forEach((outcome, index) => {
    const source = due[index]!
    if (outcome.status === 'rejected') {
      report.failed.push(source.tag)
      options.onError?.(outcome.reason, { key: source.key, tag: source.tag })
      return
    }
    report.refreshed.push(source.tag)
    if (outcome.value === 'changed') {
      report.changed.push(source.tag)
      changed.push(source)
    }
  })

  report.purged = [
    ...new Set([
      ...(options.purgeUnchanged ? report.refreshed : report.changed),
      ...again.map(({ tag }) => tag),
    ]),
  ]
  if (report.purged.length) await options.purger.purgeTags(report.purged)
  if (report.changed.length && options.repurge) {
    await options
      .repurge(report.changed)
      .catch((error: unknown) => options.onError?.(error, { key: 'repurge' }))
  }
  if (changed.length) {
    for (const listener of onPayloadsChanged) {
      const context = { origin: options.origin, waitUntil: options.waitUntil }
      await (async () => listener(env, changed, context))().catch((error: unknown) =>
        options.onError?.(error, { key: 'onPayloadsChanged' })
      )
    }
  }
  return report
}

/** The scheduled run: says it is running (the heartbeat), then refreshes what is due. */
export async function runScheduledRefresh(
  options: Omit<RefreshOptions, 'force' | 'endpoints'>
): Promise<RefreshReport> {
  const now = options.now ?? Date.now
  await options.env.CONTENT_CACHE.put(HEARTBEAT_KEY, String(now()), { expirationTtl: 24 * 60 * 60 })
  return refreshPayloads(options)
}

/** Whether the heartbeat was recent when this isolate last read it. */
const heartbeat = isolateMemo<boolean>()

/**
 * Whether the scheduled refresh is keeping payloads fresh (its heartbeat is recent). When it is not,
 * as under `wrangler dev` where Cron Triggers do not fire by themselves, requests refresh stale
 * payloads themselves.
 */
export async function scheduledRefreshIsRunning(
  kv: KVNamespace,
  now: () => number = Date.now
): Promise<boolean> {
  const remembered = heartbeat.recall(HEARTBEAT_KEY, HEARTBEAT_MEMO_MS, now())
  if (remembered) return remembered.value
  const beat = Number(await kv.get(HEARTBEAT_KEY).catch(() => null))
  const running = Number.isFinite(beat) && beat > 0 && now() - beat < HEARTBEAT_STALE_MS
  heartbeat.remember(HEARTBEAT_KEY, running, now())
  return running
}
