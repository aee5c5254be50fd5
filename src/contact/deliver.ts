/**
 * One delivery of an outbox message to the backend (POST messages with its id as Idempotency-Key),
 * told apart the way the outbox needs: delivered; refused (the backend will not take this message:
 * a 4xx, or any other answer but 200 that is not temporary); or unavailable (5xx, 408, 429,
 * time-out, network: it may take it later).
 */
import { ContentError } from '../content/errors'
import type { ContentClient } from '../freshness'
import type { OutboxMessage } from './outbox-message'

export type Delivery =
  | { kind: 'delivered' }
  | { kind: 'refused'; status: number; message?: string }
  | { kind: 'unavailable'; failure: 'timeout' | 'network' | 'status'; status?: number }

export async function deliver(
  content: ContentClient,
  { id, message }: OutboxMessage
): Promise<Delivery> {
  try {
    const answer = await content.sendMessage(message, { idempotencyKey: id })
    if (answer.ok) return { kind: 'delivered' }
    if (answer.temporary) return { kind: 'unavailable', failure: 'status', status: answer.status }
    return { kind: 'refused', status: answer.status, message: answer.message }
  } catch (error) {
    if (!(error instanceof ContentError)) throw error
    return { kind: 'unavailable', failure: error.failure === 'timeout' ? 'timeout' : 'network' }
  }
}

/** A delivery's outcome for logs and reports: never the message's text or address. */
export function describeDelivery(delivery: Delivery): string {
  switch (delivery.kind) {
    case 'delivered':
      return 'delivered'
    case 'refused':
      return `refused (HTTP ${delivery.status})`
    case 'unavailable':
      return delivery.failure === 'status'
        ? `backend unavailable (HTTP ${delivery.status})`
        : `backend unavailable (${delivery.failure})`
  }
}
