/**
 * What the contact outbox carries: an accepted message with its id (sent as the Idempotency-Key
 * of every delivery) and the time the visitor sent it. The same shape goes through CONTACT_QUEUE,
 * its dead-letter queue and the dead-letter store.
 */
import type { MessageInput } from '../freshness'

export type OutboxMessage = {
  /** The message's id: the same for every delivery, and for a double submit (recent-sends.ts). */
  id: string
  /** When the visitor sent it, in ms since the epoch: the 30-day limit on keeping it counts from here. */
  acceptedAt: number
  message: MessageInput
}

/** The message in a queue body, or null when the body is not one (nothing to deliver). */
export function readOutboxMessage(body: unknown): OutboxMessage | null {
  if (typeof body !== 'object' || body === null) return null
  const { id, acceptedAt, message } = body as Partial<Record<keyof OutboxMessage, unknown>>
  if (
    typeof id !== 'string' ||
    !id ||
    typeof acceptedAt !== 'number' ||
    !Number.isFinite(acceptedAt)
  )
    return null
  if (typeof message !== 'object' || message === null) return null
  const { name, email, comments } = message as Partial<Record<keyof MessageInput, unknown>>
  if (typeof name !== 'string' || typeof email !== 'string' || typeof comments !== 'string')
    return null
  return { id, acceptedAt, message: { name, email, comments } }
}
