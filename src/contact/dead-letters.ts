/**
 * Dead letters: messages the outbox could not deliver (every delivery of the schedule failed, or
 * the backend refused a queued message). Each is kept in CONTACT_OUTBOX under
 * `dead-letter:<id>` until 30 days after the visitor sent it (KV deletes it then), reported to
 * Sentry by id only, and resent by an operator (POST /api/contact/resend, docs/operations.md,
 * "Contact messages"). The key's metadata (times, attempts, reason) lists them without their text or address.
 */
import type { Bindings } from '../env'
import { reportBackgroundError } from '../observability'
import { enqueueMessage } from './outbox'
import { readOutboxMessage, type OutboxMessage } from './outbox-message'

/** How long after the visitor's send a dead letter may be kept. */
export const DEAD_LETTER_KEEP_SECONDS = 30 * 24 * 60 * 60
export const DEAD_LETTER_PREFIX = 'dead-letter:'

/** What `wrangler kv key list` shows of a dead letter: no personal data. */
export type DeadLetterMetadata = {
  acceptedAt: string
  deadAt: string
  attempts: number
  reason: string
}

/** A message given up on: the Sentry event's error, which names the message by id only. */
export class UndeliveredMessageError extends Error {
  override readonly name = 'UndeliveredMessageError'
  constructor(
    readonly id: string,
    readonly reason: string,
    readonly keptUntil: Date | null
  ) {
    super(
      keptUntil
        ? `contact message ${id} not delivered (${reason}); kept until ${keptUntil.toISOString()} for an operator to resend`
        : `contact message ${id} not delivered (${reason}) and past the 30 days it may be kept: dropped`
    )
  }
}

/**
 * Keeps `outbox` as a dead letter and reports it. Rejects when KV cannot store it (the caller's
 * queue message is retried then). A message sent more than 30 days ago is dropped and reported.
 */
export async function keepDeadLetter(
  env: Pick<Bindings, 'CONTACT_OUTBOX' | 'SENTRY_DSN' | 'RELEASE' | 'CF_VERSION_METADATA'>,
  ctx: ExecutionContext,
  outbox: OutboxMessage,
  { reason, attempts, now = Date.now() }: { reason: string; attempts: number; now?: number }
): Promise<void> {
  const expiration = Math.floor(outbox.acceptedAt / 1000) + DEAD_LETTER_KEEP_SECONDS
  // KV expires a key no sooner than 60 s from now.
  const kept = expiration >= Math.floor(now / 1000) + 60
  if (kept) {
    const metadata: DeadLetterMetadata = {
      acceptedAt: new Date(outbox.acceptedAt).toISOString(),
      deadAt: new Date(now).toISOString(),
      attempts,
      reason,
    }
    await env.CONTACT_OUTBOX.put(DEAD_LETTER_PREFIX + outbox.id, JSON.stringify(outbox), {
      expiration,
      metadata,
    })
  }
  const error = new UndeliveredMessageError(
    outbox.id,
    reason,
    kept ? new Date(expiration * 1000) : null
  )
  console.error(error.message)
  reportBackgroundError(env as Bindings, ctx, error, {
    route: 'queue:contact',
    kind: 'contact-dead-letter',
    contact_id: outbox.id,
  })
}

export type ResendReport = { resent: string[]; failed: string[]; missing: string[] }

/**
 * Puts dead letters back on CONTACT_QUEUE, to be delivered at once and then on the whole schedule
 * again (same id, so a backend that stored one already stores no second). `ids`: those only; else
 * every one. A letter leaves the store only once the queue has it.
 */
export async function resendDeadLetters(
  env: Pick<Bindings, 'CONTACT_OUTBOX' | 'CONTACT_QUEUE'>,
  ids?: readonly string[]
): Promise<ResendReport> {
  const report: ResendReport = { resent: [], failed: [], missing: [] }
  for (const id of ids ?? (await listDeadLetterIds(env.CONTACT_OUTBOX))) {
    const key = DEAD_LETTER_PREFIX + id
    const outbox = readOutboxMessage(await env.CONTACT_OUTBOX.get(key, 'json').catch(() => null))
    if (!outbox) {
      report.missing.push(id)
      continue
    }
    try {
      await enqueueMessage(env, outbox, 0)
      await env.CONTACT_OUTBOX.delete(key)
      report.resent.push(id)
    } catch (error) {
      console.warn(`contact: dead letter ${id} not resent: ${String(error)}`)
      report.failed.push(id)
    }
  }
  return report
}

/** The ids of every dead letter kept now. */
export async function listDeadLetterIds(kv: KVNamespace): Promise<string[]> {
  const ids: string[] = []
  let cursor: string | undefined
  do {
    const page = await kv.list({ prefix: DEAD_LETTER_PREFIX, cursor })
    ids.push(...page.keys.map((key) => key.name.slice(DEAD_LETTER_PREFIX.length)))
    cursor = page.list_complete ? undefined : page.cursor
  } while (cursor)
  return ids
}
