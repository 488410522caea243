import type { Dial, QueueNoun } from '../../rcml/model.js';
import { dialDefaults } from '../../rcml/verbs/dial.js';
import { queueDefaults } from '../../rcml/verbs/queue.js';
import { queueFailure } from '../queues/failure.js';
import { type QueueParty, queueDoc } from '../queues/party.js';
import { QueueService } from '../queues/service.js';
import { stayInQueue } from '../queues/stay.js';
import { type DialOutcome, finish, notifyAction } from './dial-outcome.js';
import type { VerbContext, VerbOutcome } from './types.js';

const HANGUP: VerbOutcome = { kind: 'hangup' };

/**
 * `<Dial><Queue>`: takes the call waiting longest on the Enqueue side of the named queue, or
 * waits for one (the Queue `waitUrl` repeating) until the Dial `timeout` (`no-answer`). The
 * Queue `url` runs on the enqueued call and `joinUrl` on this one, then the two are connected
 * until one hangs up or `timeLimit`. Recording is not supported when dialing a queue. With
 * `rejoin` given, a dialer that was the waiting side (the queued agent) follows the
 * platform's rejoin rule when its partner hangs up; a failing queue gives `DialCallStatus=failed`.
 */
export async function dialQueue(ctx: VerbContext, verb: Dial, queue: QueueNoun): Promise<VerbOutcome> {
  if (verb.record) {
    ctx.notify(
      'engine.dial-queue-record',
      1,
      'Dial: recording is not supported when dialing a Queue; not recorded',
    );
  }
  const svc = QueueService.of(ctx.services.engine);
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
  const started = ctx.now();
  let outcome: DialOutcome | VerbOutcome;
  try {
    outcome = await serve(svc, party, verb, queue.rejoin);
  } catch (err) {
    await queueFailure(svc, party, 'Dial', err);
    const ringDuration = Math.floor((ctx.now() - started) / 1000);
    outcome = { status: 'failed', duration: 0, ringDuration };
  }
  return 'kind' in outcome ? outcome : finish(ctx, verb, outcome);
}

/**
 * The dialer's stay: the outcome to report, or `hangup` (a Hangup in its wait document, or a
 * queued agent dropped by the rejoin rule). `rejoin` undefined: the Dial ends with its first
 * bridge, as for any callee.
 */
async function serve(
  svc: QueueService,
  party: QueueParty,
  verb: Dial,
  rejoin: boolean | undefined,
): Promise<DialOutcome | VerbOutcome> {
  const ctx = party.ctx;
  let arrival = await svc.arrive(party);
  let agent = false;
  // After a bridge, a wait that ends unmatched reports that bridge.
  let last: DialOutcome | undefined;
  for (;;) {
    const stay = await stayInQueue(svc, party, arrival);
    if (stay.kind === 'queue-full') return last ?? { status: 'busy', duration: 0, ringDuration: 0 };
    if (stay.kind === 'left') {
      if (stay.reason === 'hangup' && !ctx.signal.aborted) return HANGUP;
      return (
        last ?? {
          status: stay.reason === 'timeout' ? 'no-answer' : 'canceled',
          duration: 0,
          ringDuration: Math.floor(stay.waitMs / 1000),
        }
      );
    }
    const outcome: DialOutcome = {
      status: stay.end.bridged ? 'completed' : 'canceled',
      callSid: stay.partnerCallSid,
      duration: stay.end.duration,
      ringDuration: Math.floor(stay.waitMs / 1000),
    };
    agent ||= stay.waited;
    const partnerLeft = stay.end.bridged && stay.end.endedBy === 'enqueued';
    if (rejoin === undefined || !agent || !partnerLeft || ctx.signal.aborted) return outcome;
    // A queued agent whose customer hung up: the platform's rejoin rule.
    last = outcome;
    const next = await svc.afterBridge(party, stay.queue, rejoin);
    if (next.status === 'drop') {
      notifyAction(ctx, verb, outcome);
      return HANGUP;
    }
    arrival = next;
  }
}
