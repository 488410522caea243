import type { QueueInfo, QueueResult } from '../../queue/index.js';
import type { Enqueue } from '../../rcml/model.js';
import { enqueueDefaults } from '../../rcml/verbs/enqueue.js';
import { queueFailure } from '../queues/failure.js';
import { type QueueParty, queueDoc } from '../queues/party.js';
import { QueueService } from '../queues/service.js';
import { stayInQueue } from '../queues/stay.js';
import { actionOutcome } from './action.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

const HANGUP: VerbOutcome = { kind: 'hangup' };

/**
 * Puts the call in the named queue. It waits (its `waitUrl` document looping) until a call
 * dialing the queue takes it; both run their `joinUrl` documents and are connected. When the
 * partner leaves the bridge the platform's rejoin rule applies: the next waiting caller is
 * connected, else with `rejoin` the call waits again, else it is dropped. The `action` gets
 * `QueueResult`, `QueueSid` and `QueueTime` when the call leaves the queue (after the bridge
 * when bridged); without one the next verb runs. A `waitUrl` that is not a URI or a refused
 * queue request gives `error`; a failing queue store `system-error`.
 */
export async function enqueueVerb(ctx: VerbContext, verb: Enqueue): Promise<VerbOutcome> {
  if (verb.waitUrl?.trim() && !ctx.resolveUrl(verb.waitUrl)) {
    // Nothing to play while waiting and nothing to loop: the call is not queued at all.
    ctx.notify('11100', 0, `Enqueue waitUrl: invalid URL '${verb.waitUrl}'; not queued`);
    return finish(ctx, verb, 'error', '', 0);
  }
  const svc = QueueService.of(ctx.services.engine);
  const party: QueueParty = {
    ctx,
    side: 'enqueued',
    name: verb.name,
    waitDoc: queueDoc(
      ctx,
      'Enqueue waitUrl',
      verb.waitUrl,
      verb.waitUrlMethod ?? enqueueDefaults.waitUrlMethod,
    ),
    joinDoc: queueDoc(
      ctx,
      'Enqueue joinUrl',
      verb.joinUrl,
      verb.joinUrlMethod ?? enqueueDefaults.joinUrlMethod,
    ),
  };
  const started = ctx.now();
  const seen: { queue?: QueueInfo } = {};
  try {
    return await stay(svc, party, verb, seen);
  } catch (err) {
    const failure = await queueFailure(svc, party, 'Enqueue', err);
    return finish(ctx, verb, failure, seen.queue?.sid ?? '', ctx.now() - started);
  }
}

/** The call's stay, from its arrival to its last bridge (rejoining as the platform's rejoin rule says). */
async function stay(
  svc: QueueService,
  party: QueueParty,
  verb: Enqueue,
  seen: { queue?: QueueInfo },
): Promise<VerbOutcome> {
  const ctx = party.ctx;
  const rejoin = verb.rejoin ?? enqueueDefaults.rejoin;
  let arrival = await svc.arrive(party);
  for (;;) {
    seen.queue = arrival.queue;
    const stay = await stayInQueue(svc, party, arrival);
    const sid = stay.queue.sid;
    if (stay.kind === 'queue-full') return finish(ctx, verb, 'queue-full', sid, 0);
    if (stay.kind === 'left') {
      if (stay.reason === 'hangup' && !ctx.signal.aborted) {
        // A Hangup in the wait document: report, then end the call.
        finish(ctx, verb, 'hangup', sid, stay.waitMs, true);
        return HANGUP;
      }
      return finish(ctx, verb, stay.reason === 'timeout' ? 'error' : stay.reason, sid, stay.waitMs);
    }
    if (ctx.signal.aborted || stay.end.endedBy === 'enqueued') {
      return finish(ctx, verb, stay.end.bridged ? 'bridged' : 'hangup', sid, stay.waitMs);
    }
    // The partner left (or the time limit ran out): the platform's rejoin rule.
    const next = await svc.afterBridge(party, stay.queue, rejoin);
    if (next.status === 'drop') {
      finish(ctx, verb, 'bridged', sid, stay.waitMs, true);
      return HANGUP;
    }
    arrival = next;
  }
}

/**
 * Reports how the call left the queue: the action's document replaces this one, or (for a
 * call that has ended, was redirected, or is being dropped) the action is only notified.
 * `queueSid` is empty when the call never reached a queue.
 */
function finish(
  ctx: VerbContext,
  verb: Enqueue,
  result: QueueResult,
  queueSid: string,
  waitMs: number,
  notifyOnly = false,
): VerbOutcome {
  if (!verb.action) return NEXT;
  const params = ctx.params({
    QueueResult: result,
    QueueSid: queueSid,
    QueueTime: String(Math.floor(Math.max(0, waitMs) / 1000)),
  });
  const method = verb.method ?? enqueueDefaults.method;
  if (!notifyOnly && !ctx.signal.aborted) return actionOutcome(ctx, 'Enqueue', verb.action, method, params);
  const url = ctx.resolveUrl(verb.action);
  if (url) ctx.send('action', url, method, params);
  return NEXT;
}
