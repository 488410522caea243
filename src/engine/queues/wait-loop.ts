import type { HttpMethod } from '../../rcml/model.js';
import { Interrupted } from '../errors.js';
import type { RequestKind } from '../types.js';
import { QueueDocContext } from './doc-context.js';
import type { Pairing } from './pairing.js';
import { runQueueVerbs, WAIT_VERBS } from './run-verbs.js';
import type { QueueService } from './service.js';
import type { Waiter } from './waiter.js';

/** How a wait ended. */
export type WaitEnd =
  | { kind: 'paired'; pairing: Pairing }
  | { kind: 'timeout' }
  /** A Leave verb in the wait document. */
  | { kind: 'leave' }
  /** A Hangup verb in the wait document. */
  | { kind: 'hangup' }
  /** The call ended or its script was replaced. */
  | { kind: 'aborted' };

/** Silence between checks when there is no wait document (a wake-up comes as an interrupt). */
const SILENT_WAIT_SECONDS = 86_400;
/** Pause after a round that took no time, so an empty wait document cannot spin. */
const EMPTY_ROUND_SECONDS = 1;

interface Round {
  url: string;
  method: HttpMethod;
  kind: RequestKind;
  params?: Record<string, string>;
}

/**
 * The wait loop: runs the wait document, and starts it over each time it runs out of verbs,
 * until the call is taken, times out, leaves or hangs up. A Redirect (or a Gather action)
 * gives the document of the next round. Without a wait document, or when it cannot be had
 * (reported once), the call waits in silence.
 */
export async function waitLoop(svc: QueueService, waiter: Waiter): Promise<WaitEnd> {
  const ctx = waiter.party.ctx;
  const doc = waiter.party.waitDoc;
  const first: Round | undefined = doc && { url: doc.url, method: doc.method, kind: 'queue-wait' };
  let round = first;
  let emptyReported = false;
  const stopped = () => waiter.done;
  for (let iteration = 1; ; iteration++) {
    if (waiter.pairing) return { kind: 'paired', pairing: waiter.pairing };
    if (waiter.timedOut) return { kind: 'timeout' };
    if (ctx.signal.aborted) return { kind: 'aborted' };
    try {
      if (!round) {
        await new QueueDocContext(ctx, ctx.documentUrl, stopped).wait(SILENT_WAIT_SECONDS);
        continue;
      }
      const queueParams = await svc.matcher.waitParams(waiter.ticket);
      // Not waiting any more: taken (the hand-over follows) or timed out.
      if (!queueParams) {
        if (waiter.timedOut) continue;
        return { kind: 'paired', pairing: await waiter.paired };
      }
      if (svc.listening) {
        const q = waiter.queue;
        svc.emit({
          type: 'wait-loop',
          at: ctx.now(),
          queueSid: q.sid,
          accountSid: q.accountSid,
          queueName: q.name,
          callSid: ctx.call.sid,
          side: waiter.party.side,
          iteration,
          url: round.url,
        });
      }
      const loaded = await ctx.services.loadDocument(round.url, round.method, round.kind, {
        ...round.params,
        ...queueParams,
      });
      if (waiter.done || ctx.signal.aborted) continue;
      if (!loaded.ok) {
        ctx.notify(loaded.code, loaded.log, `waitUrl: ${loaded.message}; waiting in silence`, loaded.url);
        round = undefined;
        continue;
      }
      const started = ctx.now();
      const docCtx = new QueueDocContext(ctx, loaded.url, stopped);
      const outcome = await runQueueVerbs(docCtx, loaded.verbs, WAIT_VERBS, 'waitUrl');
      if (outcome.kind === 'leave') return { kind: 'leave' };
      if (outcome.kind === 'hangup' || outcome.kind === 'end') return { kind: 'hangup' };
      round =
        outcome.kind === 'fetch'
          ? { url: outcome.url, method: outcome.method, kind: outcome.requestKind, params: outcome.params }
          : first;
      if (ctx.now() === started && !waiter.done) {
        if (!emptyReported) {
          ctx.notify(
            'engine.queue-wait-empty',
            1,
            `waitUrl: a round took no time; pausing ${EMPTY_ROUND_SECONDS} s between rounds`,
            loaded.url,
          );
          emptyReported = true;
        }
        await docCtx.wait(EMPTY_ROUND_SECONDS);
      }
    } catch (err) {
      if (!(err instanceof Interrupted)) throw err;
      if (err.reason !== 'dequeued' && err.reason !== 'input') return { kind: 'aborted' };
    }
  }
}
