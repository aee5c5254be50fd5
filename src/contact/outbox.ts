/**
 * The contact outbox, request side: a valid message that passed every guard is delivered at once;
 * if the backend cannot take it now it is queued (CONTACT_QUEUE) for the consumer (consumer.ts),
 * and either way the visitor is told it was received. A refusal (4xx) is the visitor's error and
 * nothing is queued; a queue that cannot be written either is the visitor's error too: the site
 * never answers success for a message it does not keep. Why: docs/decisions/0007-contact-outbox.md.
 */
import type { ContentClient, MessageInput } from '../freshness'
import type { Bindings } from '../env'
import { deliver } from './deliver'
import type { OutboxMessage } from './outbox-message'
import { findRecentSend, fingerprintOf, messageIdFor, rememberSend } from './recent-sends'
import { delayBefore } from './retry-schedule'

export type Acceptance =
  /** delivered: the backend has it; queued: the outbox will deliver it; repeat: a send already accepted. */
  | { ok: true; id: string; via: 'delivered' | 'queued' | 'repeat' }
  | { ok: false; status: 502 | 504; message?: string }

export type AcceptOptions = {
  env: Bindings
  content: ContentClient
  /** The client's address (CF-Connecting-IP): one client's double submit is one message. */
  client: string
  message: MessageInput
  waitUntil: (promise: Promise<unknown>) => void
  /** Told when neither the backend nor the queue took the message (the visitor sees the error). */
  onNotKept: (error: unknown) => void
  now?: () => number
}

export async function acceptMessage({
  env,
  content,
  client,
  message,
  waitUntil,
  onNotKept,
  now = Date.now,
}: AcceptOptions): Promise<Acceptance> {
  const acceptedAt = now()
  const fingerprint = await fingerprintOf(client, message)
  const previous = await findRecentSend(env.CONTACT_OUTBOX, fingerprint, acceptedAt)
  if (previous) return { ok: true, id: previous, via: 'repeat' }

  const outbox: OutboxMessage = {
    id: await messageIdFor(fingerprint, acceptedAt),
    acceptedAt,
    message,
  }
  const delivery = await deliver(content, outbox)
  if (delivery.kind === 'refused') return { ok: false, status: 502, message: delivery.message }
  let via: 'delivered' | 'queued' = 'delivered'
  if (delivery.kind === 'unavailable') {
    try {
      await enqueueMessage(env, outbox, delayBefore(1, env))
      via = 'queued'
    } catch (error) {
      onNotKept(error)
      return { ok: false, status: delivery.failure === 'timeout' ? 504 : 502 }
    }
  }
  waitUntil(
    rememberSend(env.CONTACT_OUTBOX, fingerprint, outbox.id, acceptedAt).catch((error: unknown) =>
      console.warn(`contact: ${outbox.id}: not remembered as sent: ${String(error)}`)
    )
  )
  return { ok: true, id: outbox.id, via }
}

/** Puts a message on CONTACT_QUEUE, to be delivered after `delaySeconds`; rejects when it cannot. */
export async function enqueueMessage(
  env: Pick<Bindings, 'CONTACT_QUEUE'>,
  outbox: OutboxMessage,
  delaySeconds: number
): Promise<void> {
  const queue = env.CONTACT_QUEUE as Queue<OutboxMessage> | undefined
  if (!queue) throw new Error('CONTACT_QUEUE is not bound')
  await queue.send(outbox, { delaySeconds })
}
