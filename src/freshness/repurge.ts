/**
 * The second purge, once KV has reached every data centre. A purge races KV's propagation (about
 * 60 s): right after a change, a data centre may still render the page from the payload it reads,
 * and Workers Cache keeps that copy. So whoever purges for a change (the scheduled refresh, the
 * publish hook) also sends the tags to a queue with a delay past the propagation, and this worker,
 * as the queue's consumer, purges them again: a change reaches every page within about a minute of
 * the purge, not at the next scheduled run after it. The scheduled refresh's own repeat purge stays
 * as the fallback where no queue is bound. Why: docs/decisions/0004-content-freshness.md.
 */
import type { Bindings } from '../env'
import { pagePurgerFor } from './purge'

/** Past KV's propagation (about 60 s), with a margin for the queue's own delivery. */
export const REPURGE_DELAY_SECONDS = 65

export type RepurgeMessage = { tags: string[] }

/** Schedules the second purge of `tags`; undefined where no queue is bound. */
export type Repurger = (tags: readonly string[]) => Promise<void>

export function repurgerFor(env: Pick<Bindings, 'REPURGE_QUEUE'>): Repurger | undefined {
  const queue = env.REPURGE_QUEUE
  if (!queue) return undefined
  return async (tags) => {
    if (tags.length)
      await queue.send({ tags: [...tags] } satisfies RepurgeMessage, {
        delaySeconds: REPURGE_DELAY_SECONDS,
      })
  }
}

/** The queue consumer: purges the tags of every message in one go; a failed purge is retried. */
export async function handleRepurgeBatch(
  batch: MessageBatch<unknown>,
  _env: Bindings,
  ctx: ExecutionContext
): Promise<void> {
  const tags = new Set<string>()
  for (const message of batch.messages) {
    const body = message.body as Partial<RepurgeMessage> | null
    if (Array.isArray(body?.tags))
      for (const tag of body.tags) if (typeof tag === 'string' && tag) tags.add(tag)
  }
  try {
    if (tags.size) await pagePurgerFor(ctx as { cache?: CacheContext }).purgeTags([...tags])
    batch.ackAll()
  } catch (error) {
    console.warn(`repurge: ${String(error)}`)
    batch.retryAll({ delaySeconds: 10 })
  }
}
