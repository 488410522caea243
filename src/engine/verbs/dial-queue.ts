import type { Dial, QueueNoun } from '../../rcml/model.js';
import { dialDefaults } from '../../rcml/verbs/dial.js';
import { queueDefaults } from '../../rcml/verbs/queue.js';
import { type QueueParty, queueDoc } from '../queues/party.js';
import { QueueService } from '../queues/service.js';
import { stayInQueue } from '../queues/stay.js';
import { type DialOutcome, finish } from './dial-outcome.js';
import type { VerbContext, VerbOutcome } from './types.js';

const HANGUP: VerbOutcome = { kind: 'hangup' };

/**
 * `<Dial><Queue>`: takes the call waiting longest on the Enqueue side of the named queue, or
 * waits for one (the Queue `waitUrl` repeating) until the Dial `timeout` (`no-answer`). The
 * Queue `url` runs on the enqueued call and `joinUrl` on this one, then the two are connected
 * until one hangs up or `timeLimit`. Recording is not supported when dialing a queue.
 */
export async function dialQueue(ctx: VerbContext, verb: Dial, queue: QueueNoun): Promise<VerbOutcome> {
  if (verb.record) {
    ctx.notify(
      'engine.dial-queue-record',
      1,
      'Dial: recording is not supported when dialing a Queue; not recorded',
    );
  }
  const svc = QueueService.of(ctx.owner.rt);
  const timeout = verb.timeout ?? dialDefaults.timeout;
  const party: QueueParty = {
    ctx,
    side: 'dialer',
    name: queue.name,
    waitDoc: queueDoc(
      ctx,
      'Queue waitUrl',
      queue.waitUrl,
      queue.waitUrlMethod ?? queueDefaults.waitUrlMethod,
    ),
    joinDoc: queueDoc(
      ctx,
      'Queue joinUrl',
      queue.joinUrl,
      queue.joinUrlMethod ?? queueDefaults.joinUrlMethod,
    ),
    partnerDoc: queueDoc(ctx, 'Queue url', queue.url, queue.method ?? queueDefaults.method),
    waitLimitMs: timeout * 1000,
    timeLimitMs: (verb.timeLimit ?? dialDefaults.timeLimit) * 1000,
  };
  const stay = await stayInQueue(svc, party, await svc.arrive(party));
  const base = { duration: 0, ringDuration: 0 };
  if (stay.kind === 'queue-full') return finish(ctx, verb, { ...base, status: 'busy' });
  if (stay.kind === 'left') {
    if (stay.reason === 'hangup' && !ctx.signal.aborted) return HANGUP;
    const outcome: DialOutcome = {
      ...base,
      status: stay.reason === 'timeout' ? 'no-answer' : 'canceled',
      ringDuration: Math.floor(stay.waitMs / 1000),
    };
    return finish(ctx, verb, outcome);
  }
  return finish(ctx, verb, {
    status: stay.end.bridged ? 'completed' : 'canceled',
    callSid: stay.partnerCallSid,
    duration: stay.end.duration,
    ringDuration: Math.floor(stay.waitMs / 1000),
  });
}
