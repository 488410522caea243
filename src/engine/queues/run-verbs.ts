import type { Verb, VerbName } from '../../rcml/model.js';
import { verbDetails } from '../verb-details.js';
import { NEXT, type VerbContext, type VerbOutcome } from '../verbs/types.js';

/** Verbs a `waitUrl` document may use (the platform names Say, Play, Redirect; the family adds the rest). */
export const WAIT_VERBS: ReadonlySet<VerbName> = new Set<VerbName>([
  'Say',
  'Play',
  'Pause',
  'Gather',
  'Hangup',
  'Leave',
  'Redirect',
]);

/** Verbs a `joinUrl` document may use (the platform names Say, Play, Redirect only). */
export const JOIN_VERBS: ReadonlySet<VerbName> = new Set<VerbName>(['Say', 'Play', 'Redirect']);

/** Verbs a Queue noun `url` document may use (reference: Say, Play, Pause, Redirect). */
export const QUEUE_URL_VERBS: ReadonlySet<VerbName> = new Set<VerbName>(['Say', 'Play', 'Pause', 'Redirect']);

/** What a queue document's verbs came to: the outcome of the verb that stopped them, or `leave`. */
export type QueueVerbsOutcome = VerbOutcome | { kind: 'leave' };

/**
 * Runs a queue document's verbs in order. Verbs outside `allowed` are refused with a warning
 * notification and skipped; `Leave` stops the run (the caller removes the call from its queue).
 */
export async function runQueueVerbs(
  ctx: VerbContext,
  verbs: readonly Verb[],
  allowed: ReadonlySet<VerbName>,
  where: string,
): Promise<QueueVerbsOutcome> {
  const listener = ctx.services.listener;
  for (const verb of verbs) {
    const name = verb.verb === 'Unknown' ? verb.name : verb.verb;
    if (!allowed.has(verb.verb)) {
      ctx.notify(
        'engine.queue-verb',
        1,
        `<${name}> is not allowed in a ${where} document (allowed: ${[...allowed].join(', ')}); skipped`,
      );
      continue;
    }
    listener?.({
      type: 'verb',
      at: ctx.now(),
      callSid: ctx.call.sid,
      verb: name,
      documentUrl: ctx.documentUrl,
      details: verbDetails(verb),
    });
    if (verb.verb === 'Leave') return { kind: 'leave' };
    const outcome = await ctx.dispatch(ctx, verb);
    if (outcome !== NEXT && outcome.kind !== 'next') return outcome;
  }
  return NEXT;
}
