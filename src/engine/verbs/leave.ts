import type { Leave } from '../../rcml/model.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/**
 * Leave outside a wait document: the call is in no queue, so there is nothing to leave. (In a
 * `waitUrl` document the wait loop handles Leave itself: the call leaves its queue and goes on
 * after its Enqueue with `QueueResult=leave`.)
 */
export async function leaveVerb(ctx: VerbContext, _verb: Leave): Promise<VerbOutcome> {
  ctx.notify(
    'engine.leave-outside-queue',
    1,
    '<Leave> outside a queue wait document: the call is in no queue; skipped',
  );
  return NEXT;
}
