/**
 * The scheduled refresh's clock: how often the Cron Trigger runs, the heartbeat it leaves in KV,
 * and how long an isolate trusts what it read of it. Plain numbers, importing nothing, so the bench
 * (scripts/bench/cold.mjs, Node's type stripping) waits on the same figures the worker uses.
 */

/** The Cron Trigger's interval: a payload is refreshed when it would be past the TTL at the next run. */
export const SCHEDULE_INTERVAL_MS = 60_000
/** KV key the scheduled refresh writes on every run; requests read it to know it is running. */
export const HEARTBEAT_KEY = 'refresh:heartbeat'
/** A heartbeat older than this means no scheduled refresh runs (wrangler dev, or the cron stopped). */
export const HEARTBEAT_STALE_MS = 3 * SCHEDULE_INTERVAL_MS
/** How long an isolate trusts what it last read of the heartbeat. */
export const HEARTBEAT_MEMO_MS = 30_000
