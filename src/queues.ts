/**
 * The worker's queue consumers, by the queue a batch comes from. Queue names differ per
 * environment (`erebuni-site-staging-contact`), their endings do not; tests/tooling checks that
 * every consumer of every environment in wrangler.toml has a handler here.
 */
import { handleContactBatch, handleContactDeadLetterBatch } from './contact'
import { handleRepurgeBatch } from './freshness'
import type { Bindings } from './env'

type QueueHandler = (
  batch: MessageBatch<unknown>,
  env: Bindings,
  ctx: ExecutionContext
) => Promise<void>

const HANDLERS: [suffix: string, handler: QueueHandler][] = [
  ['-contact-dead-letters', handleContactDeadLetterBatch],
  ['-contact', handleContactBatch],
  ['-repurge', handleRepurgeBatch],
]

/** The handler of `queue`, or undefined for a queue this worker does not consume. */
export function queueHandlerFor(queue: string): QueueHandler | undefined {
  return HANDLERS.find(([suffix]) => queue.endsWith(suffix))?.[1]
}

export async function handleQueueBatch(
  batch: MessageBatch<unknown>,
  env: Bindings,
  ctx: ExecutionContext
): Promise<void> {
  const handler = queueHandlerFor(batch.queue)
  if (!handler) throw new Error(`no consumer for queue ${batch.queue}`)
  await handler(batch, env, ctx)
}
