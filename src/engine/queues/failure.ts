import { QueueError } from '../../queue/index.js';
import { Interrupted } from '../errors.js';
import type { QueueParty } from './party.js';
import type { QueueService } from './service.js';

/**
 * Turns an error thrown during a call's stay in a queue into its `QueueResult`: a refused
 * request (`QueueError`: bad name, already waiting...) is `error`, anything else (the queue
 * store failing) `system-error`. Reports it, and takes the call out of the queue as far as the
 * store still allows. Interruptions are not failures: they are thrown on.
 */
export async function queueFailure(
  svc: QueueService,
  party: QueueParty,
  verbName: string,
  err: unknown,
): Promise<'error' | 'system-error'> {
  if (err instanceof Interrupted) throw err;
  const refused = err instanceof QueueError;
  const message = err instanceof Error ? err.message : String(err);
  party.ctx.notify(
    refused ? 'engine.queue-error' : 'engine.queue-store',
    0,
    `${verbName} '${party.name}': ${refused ? '' : 'queue store failed: '}${message}`,
  );
  await svc.abandon(party, refused ? 'error' : 'system-error');
  return refused ? 'error' : 'system-error';
}
