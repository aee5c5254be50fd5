/// <reference types="node" />
/**
 * The contact outbox's queues in wrangler.toml, in every environment, against the retry schedule
 * in code (src/contact/retry-schedule.ts) and the platform's limits
 * (https://developers.cloudflare.com/queues/platform/limits/): the schedule's arithmetic of
 * docs/decisions/0007-contact-outbox.md, checked.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { experimental_readRawConfig, unstable_readConfig } from 'wrangler'
import {
  CONTACT_MAX_RETRIES,
  CONTACT_RETRY_DELAYS,
  delayBefore,
  MAX_DELAY_SECONDS,
} from '../../src/contact/retry-schedule'
import { queueHandlerFor } from '../../src/queues'

const CONFIG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../wrangler.toml')
const { rawConfig } = experimental_readRawConfig({ config: CONFIG }, { hideWarnings: true })
const ENVIRONMENTS = ['', ...Object.keys(rawConfig.env ?? {})]

describe.each(ENVIRONMENTS)('wrangler.toml %s', (env) => {
  const resolved = unstable_readConfig(
    { config: CONFIG, env: env || undefined },
    { hideWarnings: true }
  )
  const producers = (resolved.queues.producers ?? []) as { binding: string; queue: string }[]
  const consumers = (resolved.queues.consumers ?? []) as {
    queue: string
    max_retries?: number
    dead_letter_queue?: string
  }[]
  const producer = producers.find((queue) => queue.binding === 'CONTACT_QUEUE')
  const contact = consumers.find((consumer) => consumer.queue === producer?.queue)

  it('retries the contact queue once per delay of the schedule, then moves it to a dead-letter queue this worker consumes', () => {
    expect(contact?.max_retries).toBe(CONTACT_MAX_RETRIES)
    expect(contact?.dead_letter_queue).toBe(`${producer?.queue}-dead-letters`)
    expect(consumers.map((consumer) => consumer.queue)).toContain(contact?.dead_letter_queue)
  })

  it('has a handler for every queue it consumes', () => {
    for (const { queue } of consumers) expect(queueHandlerFor(queue), queue).toBeDefined()
    expect(queueHandlerFor(contact!.queue)?.name).toBe('handleContactBatch')
    expect(queueHandlerFor(contact!.dead_letter_queue!)?.name).toBe('handleContactDeadLetterBatch')
  })

  it('keeps the whole schedule: no cap below 12 h between deliveries', () => {
    expect(resolved.vars.CONTACT_RETRY_MAX_DELAY_SECONDS).toBe(String(MAX_DELAY_SECONDS))
  })
})

describe('the contact retry schedule', () => {
  it('tries again first within a minute, then after growing delays, each within the platform’s 12 h', () => {
    expect(CONTACT_RETRY_DELAYS[0]).toBeLessThanOrEqual(60)
    for (let i = 1; i < CONTACT_RETRY_DELAYS.length; i++)
      expect(CONTACT_RETRY_DELAYS[i]).toBeGreaterThan(CONTACT_RETRY_DELAYS[i - 1]!)
    expect(Math.max(...CONTACT_RETRY_DELAYS)).toBeLessThanOrEqual(43_200)
    expect(CONTACT_MAX_RETRIES).toBeLessThanOrEqual(100)
  })

  it('keeps trying for at least 24 hours, and ends within the queue’s default retention of 4 days', () => {
    // From the visitor's send to the last delivery from the queue: 101,310 s (28.1 h).
    const span = CONTACT_RETRY_DELAYS.reduce((sum, delay) => sum + delay, 0)
    expect(span).toBe(101_310)
    expect(span).toBeGreaterThanOrEqual(24 * 3600)
    expect(span).toBeLessThan(4 * 24 * 3600)
  })

  it('reads CONTACT_RETRY_MAX_DELAY_SECONDS as a cap, and anything unreadable as none', () => {
    expect(delayBefore(1, { CONTACT_RETRY_MAX_DELAY_SECONDS: '1' })).toBe(1)
    expect(delayBefore(12, { CONTACT_RETRY_MAX_DELAY_SECONDS: '0' })).toBe(0)
    for (const value of ['', 'soon', '-5', '86400'])
      expect(delayBefore(12, { CONTACT_RETRY_MAX_DELAY_SECONDS: value })).toBe(43_200)
    expect(delayBefore(99, { CONTACT_RETRY_MAX_DELAY_SECONDS: '43200' })).toBe(43_200)
  })
})
