/**
 * When a queued contact message is tried again (docs/decisions/0007-contact-outbox.md).
 *
 * The visitor's request tries the backend once; a message it could not deliver goes to
 * CONTACT_QUEUE with the first delay, and each failed delivery from the queue asks for the next
 * one (`message.retry({ delaySeconds })`). After the last delivery of the schedule the queue moves
 * the message to its dead-letter queue: wrangler.toml's `max_retries` is CONTACT_MAX_RETRIES.
 *
 * Platform limits: delaySeconds at most 12 h (24 h in newer limits; 12 h keeps the schedule valid
 * under both), at most 100 retries, a message kept at most the queue's retention (4 days by default).
 *
 *   delivery   1    2    3    4    5     6     7     8    9    10   11   12
 *   waits      30s  1m   2m   5m   10m   20m   30m   1h   2h   4h   8h   12h
 *   at         30s  1.5m 3.5m 8.5m 18.5m 38.5m 68.5m 2.1h 4.1h 8.1h 16.1h 28.1h
 */
import type { Bindings } from '../env'

/** Seconds before each delivery from the queue: the first within a minute, growing, 28.1 h in all. */
export const CONTACT_RETRY_DELAYS = [
  30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400, 28800, 43200,
] as const
/** The consumer's `max_retries` in wrangler.toml: one delivery per delay. */
export const CONTACT_MAX_RETRIES = CONTACT_RETRY_DELAYS.length - 1
/** The platform's limit on delaySeconds that the schedule keeps to. */
export const MAX_DELAY_SECONDS = 43_200

/** CONTACT_RETRY_MAX_DELAY_SECONDS, when it is a number from 0 to 12 h; else 12 h (the schedule as is). */
export function maxDelaySeconds(env: Pick<Bindings, 'CONTACT_RETRY_MAX_DELAY_SECONDS'>): number {
  const value = env.CONTACT_RETRY_MAX_DELAY_SECONDS
  const seconds = Number(value)
  if (value === undefined || value.trim() === '' || !Number.isFinite(seconds) || seconds < 0)
    return MAX_DELAY_SECONDS
  return Math.min(Math.floor(seconds), MAX_DELAY_SECONDS)
}

/**
 * Seconds to wait before delivery `delivery` (1 is the first from the queue), capped at
 * CONTACT_RETRY_MAX_DELAY_SECONDS; past the schedule, its last delay.
 */
export function delayBefore(
  delivery: number,
  env: Pick<Bindings, 'CONTACT_RETRY_MAX_DELAY_SECONDS'>
): number {
  const index = Math.min(Math.max(delivery, 1), CONTACT_RETRY_DELAYS.length) - 1
  return Math.min(CONTACT_RETRY_DELAYS[index]!, maxDelaySeconds(env))
}
