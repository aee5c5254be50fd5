/**
 * The contact outbox, queue side: this worker consumes CONTACT_QUEUE and its dead-letter queue.
 *
 * Each queued message is delivered with its id as Idempotency-Key. Delivered: acknowledged.
 * The backend still unavailable: retried after the schedule's next delay (retry-schedule.ts); after
 * the last, the queue moves it to the dead-letter queue. Refused (4xx): no retry would change that,
 * so it becomes a dead letter at once. The dead-letter queue's consumer keeps each message for an
 * operator to resend and reports it (dead-letters.ts). Logs name messages by id only.
 */
import { createContentClient } from '../freshness'
import type { Bindings } from '../env'
import { keepDeadLetter } from './dead-letters'
import { deliver, describeDelivery, type Delivery } from './deliver'
import { readOutboxMessage } from './outbox-message'
import { CONTACT_MAX_RETRIES, delayBefore } from './retry-schedule'

export async function handleContactBatch(
  batch: MessageBatch<unknown>,
  env: Bindings,
  ctx: ExecutionContext
): Promise<void> {
  const timeout = Number(env.API_TIMEOUT_MS)
  const content = createContentClient({
    env,
    waitUntil: (promise) => ctx.waitUntil(promise),
    timeoutMs: timeout > 0 ? timeout : undefined,
    onError: (error) => console.warn(`contact: delivery: ${String(error)}`),
  })
  await Promise.all(
    batch.messages.map(async (message) => {
      const outbox = readOutboxMessage(message.body)
      if (!outbox) {
        console.error(`contact: queue message ${message.id} is not an outbox message; dropped`)
        return message.ack()
      }
      const delivery: Delivery = await deliver(content, outbox).catch((error: unknown) => {
        console.warn(`contact: ${outbox.id}: delivery threw: ${String(error)}`)
        return { kind: 'unavailable', failure: 'network' }
      })
      const attempt = `delivery ${message.attempts} of ${CONTACT_MAX_RETRIES + 1}`
      if (delivery.kind === 'delivered') {
        console.log(`contact: ${outbox.id}: delivered (${attempt})`)
        return message.ack()
      }
      if (delivery.kind === 'refused') {
        try {
          await keepDeadLetter(env, ctx, outbox, {
            reason: describeDelivery(delivery),
            attempts: message.attempts,
          })
          return message.ack()
        } catch (error) {
          console.warn(
            `contact: ${outbox.id}: refused, and not kept as a dead letter: ${String(error)}`
          )
          return message.retry({ delaySeconds: delayBefore(message.attempts + 1, env) })
        }
      }
      const delaySeconds = delayBefore(message.attempts + 1, env)
      const next =
        message.attempts > CONTACT_MAX_RETRIES
          ? 'to the dead-letter queue'
          : `again in ${delaySeconds} s`
      console.warn(`contact: ${outbox.id}: ${describeDelivery(delivery)} (${attempt}); ${next}`)
      message.retry({ delaySeconds })
    })
  )
}

/** Messages the queue gave up on: kept and reported; retried only while KV cannot keep them. */
export async function handleContactDeadLetterBatch(
  batch: MessageBatch<unknown>,
  env: Bindings,
  ctx: ExecutionContext
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const outbox = readOutboxMessage(message.body)
      if (!outbox) {
        console.error(
          `contact: dead-letter message ${message.id} is not an outbox message; dropped`
        )
        return message.ack()
      }
      try {
        await keepDeadLetter(env, ctx, outbox, {
          reason: `backend unavailable for all ${CONTACT_MAX_RETRIES + 1} deliveries`,
          attempts: CONTACT_MAX_RETRIES + 1,
        })
        message.ack()
      } catch (error) {
        console.warn(`contact: ${outbox.id}: dead letter not kept yet: ${String(error)}`)
        message.retry()
      }
    })
  )
}
